/**
 * Portal tests: a signed-in member without a passkey ceremony (the ceremony
 * itself is tested in the browser, test/browser/portal-*.browser.test.ts), and
 * page requests made the way a browser on our own origin makes them.
 */
import { env, exports } from "cloudflare:workers";
import { database } from "../../src/db/client";
import { portalMembers } from "../../src/db/schema/portal";
import type { Environment } from "../../src/domain/identity/keys";
import type { PortalRole } from "../../src/domain/portal/viewer";
import { newId, nowIso } from "../../src/lib/ids";
import { formTokenOf, openSession } from "../../src/services/portal/sessions";
import { sha256Hex } from "../../src/lib/crypto";
import { SESSION_COOKIE } from "../../src/web/portal/session-cookie";
import { PRODUCTION, throughEdge } from "./api";
import { testDeps } from "./deps";

export interface PortalSession {
  memberId: string;
  organisationId: string;
  email: string;
  cookie: string;
  /** A token of the page the session saw first (sandbox); `portal()` mints a fresh one for every post. */
  formToken: string;
  sessionId: string;
}

/** A member of the organisation with a live session (sandbox, as every new session). */
export async function signedInMember(organisationId: string, role: PortalRole = "admin", email = `${crypto.randomUUID().slice(0, 8)}@example.test`): Promise<PortalSession> {
  const db = database(env.DB);
  const memberId = newId("mem");
  await db.insert(portalMembers).values({ id: memberId, organisationId, email, role, createdAt: nowIso(), removedAt: null });
  const token = await openSession(testDeps(), { id: memberId, organisationId });
  const sessionId = await sha256Hex(token);
  const formToken = await formTokenOf(testDeps(), { sessionId, environment: "sandbox" });
  return { memberId, organisationId, email, cookie: `${SESSION_COOKIE}=${token}`, formToken, sessionId };
}

/**
 * The token a freshly rendered page would carry: each rendered form is single-use for its action
 * (issue 21 item 8) and bound to the environment the session showed (item 7), the session's now
 * unless `environment` is given.
 */
export async function freshFormToken(session: Pick<PortalSession, "sessionId">, environment?: Environment) {
  const current = environment ?? (await env.DB.prepare("select environment from portal_sessions where token_hash = ?").bind(session.sessionId).first<{ environment: Environment }>())?.environment ?? "sandbox";
  return formTokenOf(testDeps(), { sessionId: session.sessionId, environment: current });
}

export interface PortalRequestOptions {
  session?: PortalSession;
  /** Sent as a urlencoded form; a fresh form token of the session is added unless `formToken` is given (null sends none). */
  form?: Record<string, string | string[]>;
  formToken?: string | null;
  /** Defaults to a same-origin browser post. */
  headers?: Record<string, string>;
  /** The answer as it came: a refused post's redirect to its form's page is not followed. */
  raw?: boolean;
}

export interface PortalResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The Location of a redirect, as a path. */
  location: string | null;
  /** A refused post's redirect to its form's page, followed as a browser does (`followRefused`): its Location; null otherwise. */
  via: string | null;
}

export async function portal(method: string, path: string, options: PortalRequestOptions = {}): Promise<PortalResponse> {
  const headers: Record<string, string> = { "Sec-Fetch-Site": "same-origin", ...options.headers };
  if (options.session) headers.Cookie = options.session.cookie;
  let body: string | undefined;
  if (options.form) {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(options.form)) for (const v of [value].flat()) form.append(name, v);
    const token = options.formToken === undefined ? (options.session ? await freshFormToken(options.session) : undefined) : options.formToken;
    if (token) form.set("_form_token", token);
    body = form.toString();
    headers["Content-Type"] = "application/x-www-form-urlencoded";
  }
  const res = await exports.default.fetch(new Request(`${PRODUCTION}/portal${path === "/" ? "" : path}`, { method, headers, body, redirect: "manual" }));
  const answer = await followRefused(res, options.raw ? undefined : headers.Cookie);
  const location = answer.via ? null : answer.headers.get("Location");
  return { ...answer, location: location ? new URL(location, PRODUCTION).pathname : null };
}

/** How `followRefused` asks for the form's page: the request's headers, the app the post went to, its origin. */
interface Follow {
  /** Sent with the GET besides the cookie (the client address the hub and the link count). */
  headers?: Record<string, string>;
  /** The app the post went to (the worker by default). */
  send?: (request: Request) => Promise<Response>;
  /** The origin the post went to (production by default; the sandbox host's for a post there). */
  origin?: string;
}

/**
 * An answer as the browser ends up showing it: a refused form of the portal, the hub or the application
 * link is answered 303 to its form's page with the kept page's one-time id (`?refused=`,
 * web/kit/refused-posts.ts), followed here once with the same cookie. `via` is that redirect's
 * Location, null when the answer was not one (then it is given as it came), so a test can say the
 * refusal came by its page's GET.
 */
export async function followRefused(res: Response, cookie: string | undefined, follow: Follow = {}) {
  const { headers = {}, send = (r: Request) => exports.default.fetch(r), origin = PRODUCTION } = follow;
  const location = res.headers.get("Location");
  if (res.status !== 303 || !cookie || !location || !new URL(location, origin).searchParams.has("refused")) return { status: res.status, headers: res.headers, text: await res.text(), via: null };
  await res.text();
  const page = await send(new Request(new URL(location, origin), { headers: { ...headers, Cookie: cookie }, redirect: "manual", ...throughEdge(headers) }));
  return { status: page.status, headers: page.headers, text: await page.text(), via: location as string | null };
}
