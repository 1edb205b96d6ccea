/**
 * Typed clients for both APIs: openapi-fetch over the types generated from the
 * OpenAPI documents the service serves (`npm run sdk:generate`). Every call
 * returns `{ data, error, response }`; `error` is the problem+json body, typed
 * per operation, with `error.error.code` to branch on.
 */
import createClient, { type Client } from "openapi-fetch";
import { bearerFetch, createTokenProvider, type PartnerTokenOptions, type TokenProvider } from "./auth.js";
import type { paths as LenderPaths } from "./generated/lender.js";
import type { paths as PartnerPaths } from "./generated/partner.js";

export type PartnerClient = Client<PartnerPaths> & {
  /** The token provider behind the client, e.g. to share one cache between clients. */
  readonly auth: TokenProvider;
};
export type LenderClient = Client<LenderPaths>;

export interface ClientOptions {
  /** The host, without the API path: `https://api.example.com` or `http://localhost:8787`. */
  baseUrl: string;
  apiKey: string;
  /** Headers sent on every request (e.g. a User-Agent of yours). */
  headers?: Record<string, string>;
  fetch?: (input: Request) => Promise<Response>;
}

const trimmed = (url: string) => url.replace(/\/+$/, "");

/**
 * The partner API (`/partner/v1`), authenticated with bearer tokens that the
 * client obtains from the secret key and refreshes by itself.
 */
export function createPartnerClient(options: ClientOptions & Pick<PartnerTokenOptions, "clientId" | "refreshMarginSeconds">): PartnerClient {
  const fetchFn = options.fetch ?? ((r: Request) => globalThis.fetch(r));
  const auth = createTokenProvider({ ...options, fetch: fetchFn });
  const client = createClient<PartnerPaths>({
    baseUrl: `${trimmed(options.baseUrl)}/partner/v1`,
    headers: options.headers,
    fetch: bearerFetch(auth, fetchFn),
  });
  return Object.assign(client, { auth });
}

/** The lender API (`/v1`), authenticated with `X-API-Key`. */
export function createLenderClient(options: ClientOptions): LenderClient {
  return createClient<LenderPaths>({
    baseUrl: `${trimmed(options.baseUrl)}/v1`,
    headers: { ...options.headers, "X-API-Key": options.apiKey },
    fetch: options.fetch,
  });
}
