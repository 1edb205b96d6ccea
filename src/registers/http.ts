import type { SourceContext } from "./context";

/**
 * The one way adapters speak HTTP: a per-call timeout, the source's status
 * codes turned into the register reasons, Retry-After kept for the caller,
 * and bodies parsed without trusting them. Logs name the source and the
 * operation only, never the URL (ABN Lookup's GUID travels in the query) or
 * the credentials.
 */

export type HttpFailureReason = "not_found" | "unavailable" | "rate_limited" | "timeout";

export interface HttpFailure {
  reason: HttpFailureReason;
  /** The HTTP status when the source answered; null for timeouts and network errors. */
  status: number | null;
  retryable: boolean;
  retryAfterSeconds: number | null;
}

export type HttpResult<T = unknown> = { ok: true; status: number; body: T } | { ok: false; failure: HttpFailure };

export interface HttpRequest {
  source: string;
  /** A short name for logs ("company_profile", "officers"…). */
  operation: string;
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Turns the body text into a value; default JSON.parse. Throwing means a malformed body. */
  parse?: (text: string) => unknown;
}

/** Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null, now: Date): number | null {
  if (value === null || value.trim() === "") return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

/**
 * Every register call names the service (recherche-entreprises asks callers to;
 * the others log it). No contact address: nothing personal leaves in a header.
 */
export const USER_AGENT = "referral-funding-service/1.0 (company register and VAT lookups)";

/**
 * Companies House answers 429 with `X-Ratelimit-Reset` (epoch seconds at which
 * the 5-minute window starts again) and normally no Retry-After. Seconds until
 * that moment, or null when the header is absent or unreadable.
 */
export function secondsUntilReset(value: string | null, now: Date): number | null {
  if (value === null || !/^\d+$/.test(value.trim())) return null;
  return Math.max(0, Math.ceil(Number(value.trim()) - now.getTime() / 1000));
}

/** How long the source asks us to wait: Retry-After when sent, else its rate-limit window's reset. */
export const waitAskedFor = (headers: Headers, now: Date): number | null =>
  parseRetryAfter(headers.get("Retry-After"), now) ?? secondsUntilReset(headers.get("X-Ratelimit-Reset"), now);

const failure = (reason: HttpFailureReason, status: number | null, retryable: boolean, retryAfterSeconds: number | null = null): HttpFailure => ({
  reason,
  status,
  retryable,
  retryAfterSeconds,
});

function failureFor(response: Response, now: Date): HttpFailure {
  const { status } = response;
  if (status === 404) return failure("not_found", status, false);
  if (status === 429) return failure("rate_limited", status, true, waitAskedFor(response.headers, now));
  if (status >= 500) return failure("unavailable", status, true, parseRetryAfter(response.headers.get("Retry-After"), now));
  // 401/403 is our credentials or our access, 400 our request, 3xx a move we do not follow: asking again will not help.
  return failure("unavailable", status, false);
}

const isTimeout = (error: unknown) => error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");

export async function requestJson(ctx: SourceContext, request: HttpRequest): Promise<HttpResult> {
  const log = (outcome: string, status: number | null = null) =>
    ctx.log({ source: request.source, operation: request.operation, outcome, status });
  // The register asked us to wait, or its budget is spent: no call before its reset.
  const waitSeconds = ctx.pacer ? await ctx.pacer.take(request.source, ctx.now()) : null;
  if (waitSeconds !== null) {
    log("paced");
    return { ok: false, failure: failure("rate_limited", null, true, waitSeconds) };
  }
  try {
    const response = await ctx.fetch(request.url, {
      method: request.method ?? "GET",
      headers: { "User-Agent": USER_AGENT, ...request.headers },
      body: request.body,
      // A redirect is not followed: it could carry our credentials to another host.
      redirect: "manual",
      signal: AbortSignal.timeout(ctx.timeoutMs),
    });
    await ctx.pacer?.observe(request.source, response.status, response.headers, ctx.now());
    if (!response.ok) {
      const result = failureFor(response, ctx.now());
      // Drain the body so the connection is released; its content is not needed.
      await response.body?.cancel().catch(() => undefined);
      if (result.reason !== "not_found") log(`http_${response.status}`, response.status);
      return { ok: false, failure: result };
    }
    const text = await response.text();
    // 204 No Content (KRS's "no current entry"): a body of null, for the adapter to read.
    if (response.status === 204) return { ok: true, status: response.status, body: null };
    try {
      return { ok: true, status: response.status, body: (request.parse ?? JSON.parse)(text) };
    } catch {
      log("malformed_body", response.status);
      return { ok: false, failure: failure("unavailable", response.status, false) };
    }
  } catch (error) {
    if (isTimeout(error)) {
      log("timeout");
      return { ok: false, failure: failure("timeout", null, true) };
    }
    log("network_error");
    return { ok: false, failure: failure("unavailable", null, true) };
  }
}

/** Basic authorization value; Companies House takes the API key as the user name and no password. */
export const basicAuth = (user: string, password = "") => `Basic ${btoa(`${user}:${password}`)}`;
