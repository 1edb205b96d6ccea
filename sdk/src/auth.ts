/**
 * Bearer tokens for the partner API: the secret key is exchanged at
 * `POST /partner/v1/oauth/token` (client credentials), the token is kept until
 * shortly before it expires, and a 401 on a request made with a cached token
 * fetches a new one and retries that request once. The key itself then never
 * travels on ordinary requests.
 */

export interface PartnerTokenOptions {
  baseUrl: string;
  /** The partner secret key (`rfs_ptr_<env>_<key id>_<secret>`). */
  apiKey: string;
  /** Default: the key without its secret part, which is what the service expects. */
  clientId?: string;
  /** Refresh this long before the token's expiry. Default 60 seconds. */
  refreshMarginSeconds?: number;
  fetch?: (input: Request) => Promise<Response>;
  /** For tests: the clock, in milliseconds. */
  now?: () => number;
}

export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
  environment: "sandbox" | "live";
}

/** The token exchange was refused; `status` and `body` are the service's answer (a problem+json). */
export class TokenExchangeError extends Error {
  readonly name = "TokenExchangeError";
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    const code = (body as { error?: { code?: string } } | null)?.error?.code;
    super(`token exchange failed with ${status}${code ? ` ${code}` : ""}`);
  }
}

/** `rfs_ptr_live_<16>_<40>` → `rfs_ptr_live_<16>`: the client id is everything before the secret. */
export const clientIdOf = (apiKey: string) => apiKey.slice(0, apiKey.lastIndexOf("_"));

export interface TokenProvider {
  /** A valid bearer token, from the cache unless it is (nearly) expired. */
  token(): Promise<string>;
  /** Forget the cached token (after a 401) so the next `token()` exchanges the key again. */
  invalidate(token: string): void;
}

export function createTokenProvider(options: PartnerTokenOptions): TokenProvider {
  const fetchFn = options.fetch ?? ((r: Request) => globalThis.fetch(r));
  const now = options.now ?? Date.now;
  const marginMs = (options.refreshMarginSeconds ?? 60) * 1000;
  const url = `${options.baseUrl.replace(/\/+$/, "")}/partner/v1/oauth/token`;
  let cached: { token: string; refreshAt: number } | null = null;
  // Parallel requests share one exchange instead of each starting their own.
  let inFlight: Promise<string> | null = null;

  async function exchange(): Promise<string> {
    const res = await fetchFn(
      new Request(url, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: options.clientId ?? clientIdOf(options.apiKey), client_secret: options.apiKey }),
      }),
    );
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    if (!res.ok) throw new TokenExchangeError(res.status, body);
    const granted = body as TokenResponse;
    cached = { token: granted.access_token, refreshAt: now() + granted.expires_in * 1000 - marginMs };
    return granted.access_token;
  }

  return {
    async token() {
      if (cached && now() < cached.refreshAt) return cached.token;
      inFlight ??= exchange().finally(() => {
        inFlight = null;
      });
      return inFlight;
    },
    invalidate(token) {
      if (cached?.token === token) cached = null;
    },
  };
}

/**
 * A fetch that sends `Authorization: Bearer` from the provider and, when the
 * service answers 401, exchanges the key again and retries the request once.
 */
export function bearerFetch(provider: TokenProvider, fetchFn: (input: Request) => Promise<Response> = (r) => globalThis.fetch(r)) {
  const withToken = (request: Request, token: string) => {
    const authorised = new Request(request);
    authorised.headers.set("Authorization", `Bearer ${token}`);
    return authorised;
  };
  return async (request: Request): Promise<Response> => {
    // Kept unread so the body can be sent a second time after a refresh.
    const spare = request.clone();
    const token = await provider.token();
    const res = await fetchFn(withToken(request, token));
    if (res.status !== 401) return res;
    provider.invalidate(token);
    await res.body?.cancel();
    return fetchFn(withToken(spare, await provider.token()));
  };
}
