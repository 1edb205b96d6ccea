import { exports } from "cloudflare:workers";
import { contractProblems } from "./contract";

export const PRODUCTION = "http://api.test";
export const SANDBOX = "http://sandbox.localhost";
export const ADMIN_TOKEN = "test-admin-token";

/**
 * Cloudflare's edge sets `CF-Connecting-IP` and hands the Worker `request.cf` together, and the
 * Worker believes the header only beside `request.cf` (src/lib/client-address.ts). A test that names
 * a client address therefore models a request through the edge: it gets a `cf` object too. A test
 * that sends the header without `cf` (a client forging it) builds its own Request.
 */
export function throughEdge(headers: Record<string, string> | undefined): { cf?: IncomingRequestCfProperties } {
  const named = Object.keys(headers ?? {}).some((h) => h.toLowerCase() === "cf-connecting-ip");
  return named ? { cf: { colo: "TST", asn: 64496 } as unknown as IncomingRequestCfProperties } : {};
}

/**
 * A client address no other request of the suite uses, as the edge would send it (pass it with
 * `throughEdge`). Requests without an edge address all count against one per-address bucket
 * (`unattributed`: failed authentications, hub pages, portal sign-in), which every file of a worker
 * shares with every other (vitest.config.mts): a test that is not about that bucket sends its own address.
 */
export function ownAddress(): Record<string, string> {
  return { "CF-Connecting-IP": newClientAddress() };
}

/** The address itself (a random one of the documentation prefix 2001:db8::/32), for a test that sends it more than once. */
export function newClientAddress(): string {
  const groups = Array.from(crypto.getRandomValues(new Uint16Array(6)), (n) => n.toString(16));
  return `2001:db8:${groups.join(":")}`;
}

export interface CallOptions {
  key?: string;
  token?: string;
  body?: unknown;
  /** Sent as-is, for tests of unreadable bodies. */
  rawBody?: BodyInit;
  contentType?: string;
  host?: string;
  headers?: Record<string, string>;
  /** Skip the contract check, for tests that judge answers against the documents themselves. */
  unjudged?: boolean;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/**
 * Calls the worker the way an integrator would, through its fetch handler.
 * Every answer to an operation of an API document is judged against it: an
 * undeclared status or a body that fails its declared schema fails the test
 * that received it (test/helpers/contract.ts).
 */
export async function call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers["X-API-Key"] = options.key;
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: BodyInit | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["Content-Type"] = "application/json";
  }
  if (options.contentType) headers["Content-Type"] = options.contentType;
  const res = await exports.default.fetch(new Request(`${options.host ?? PRODUCTION}${path}`, { method, headers, body, ...throughEdge(headers) }));
  const text = await res.text();
  if (!options.unjudged) {
    const problems = await contractProblems(method, path, { status: res.status, headers: res.headers, text });
    if (problems.length > 0) {
      throw new Error(`The answer breaks the API document:\n- ${problems.join("\n- ")}\nbody: ${text.slice(0, 2000)}`);
    }
  }
  let parsed: any = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: tests read `text` */
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

export const admin = <T = any>(method: string, path: string, body?: unknown) =>
  call<T>(method, `/admin/v1${path}`, { body, headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
