import type { RouteConfig } from "@hono/zod-openapi";
import type { ApiRefusalCode } from "../lib/refusal";
import { AUTHENTICATED_ERRORS, errorResponses, errorCodesOf } from "./openapi";

/** Methods whose requests can carry a body; the body limit refuses an oversized one whether the route reads it or not. */
const BODY_METHODS = new Set(["post", "put", "patch", "delete"]);

const isJsonOrForm = (mediaType: string) =>
  /^application\/([a-z.-]+\+)?json/i.test(mediaType) || /^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(mediaType);

/**
 * An operation that opts out of `Idempotency-Key` (it stores nothing) says so
 * with this extension, so its document lists no idempotency errors.
 */
export const IGNORES_IDEMPOTENCY_KEY = { "x-idempotency-key": "ignored" } as const;

/**
 * The errors an operation can answer with because of what it declares, not
 * because of what its handler decides. Each rule mirrors a guard every API
 * mounts (see partner/index.ts, lender/index.ts, admin/index.ts) or a
 * validator the router builds from the route:
 * - a validated path, query, header or body: 400 `invalid_request` naming the field;
 * - a path parameter: 404 `not_found` (unknown, or another account's);
 * - a method that can carry a body: 413 from the body limit;
 * - a JSON or form body: 415 from the media-type gate in front of its validator;
 * - `security`: the authentication and per-key rate-limit errors;
 * - a POST with `security`: the `Idempotency-Key` errors, unless it ignores the header;
 * - every routed operation: 503 `service_misconfigured` from the configuration check app.ts mounts
 *   in front of everything but /health (a production deployment without its secrets).
 */
export function derivedErrors(route: RouteConfig): ApiRefusalCode[] {
  const request = route.request ?? {};
  const codes: ApiRefusalCode[] = ["service_misconfigured"];
  if (request.params || request.query || request.headers || request.body) codes.push("invalid_request");
  if (request.params) codes.push("not_found");
  if (BODY_METHODS.has(route.method)) codes.push("payload_too_large");
  if (Object.keys(request.body?.content ?? {}).some(isJsonOrForm)) codes.push("unsupported_media_type");
  const authenticated = (route.security?.length ?? 0) > 0;
  if (authenticated) codes.push(...AUTHENTICATED_ERRORS);
  if (authenticated && route.method === "post" && route["x-idempotency-key"] !== IGNORES_IDEMPOTENCY_KEY["x-idempotency-key"]) {
    codes.push("invalid_request", "idempotency_key_in_use", "idempotency_key_reused");
  }
  return codes;
}

/** The route with its declared errors completed: the hand-listed (handler) errors plus the derived ones, one response per status. */
export function withDerivedResponses<R extends RouteConfig>(route: R): R {
  const handListed: ApiRefusalCode[] = [];
  const success: RouteConfig["responses"] = {};
  for (const [status, response] of Object.entries(route.responses)) {
    const codes = errorCodesOf(response);
    if (codes) handListed.push(...codes);
    else success[status] = response;
  }
  return { ...route, responses: { ...success, ...errorResponses(...handListed, ...derivedErrors(route)) } };
}
