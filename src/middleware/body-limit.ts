import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import { html } from "hono/html";
import type { AppEnv } from "../app-env";
import { Refusal } from "../lib/refusal";

/** JSON bodies of the APIs above this size are refused with 413 before they are parsed. */
export const JSON_BODY_LIMIT_BYTES = 256 * 1024;
/** File uploads (documents, agreements), on the routes that take them and nowhere else. */
export const UPLOAD_BODY_LIMIT_BYTES = 20 * 1024 * 1024;
export const TOKEN_BODY_LIMIT_BYTES = 8 * 1024;
/** A portal or hub form without a file (the longest is a lead with its notes). */
export const FORM_BODY_LIMIT_BYTES = 64 * 1024;
/** A WebAuthn ceremony answer (a passkey's attestation is a few KB). */
export const PASSKEY_BODY_LIMIT_BYTES = 32 * 1024;

/** The routes that take files: method and path pattern. */
const UPLOAD_ROUTES: readonly [string, RegExp][] = [
  ["POST", /^\/partner\/v1\/leads\/[^/]+\/documents$/],
  ["PUT", /^\/v1\/deals\/[^/]+\/agreement$/],
  ["POST", /^\/hub\/[^/]+\/[^/]+\/requests\/[^/]+$/],
  ["POST", /^\/portal\/deals\/[^/]+\/agreement$/],
  ["POST", /^\/portal\/leads\/[^/]+\/documents$/],
];

const isHtmlDoor = (path: string) => /^\/(portal|hub)(\/|$)/.test(path);

/** The limit of one route: sized by what the route takes, never by the Content-Type the client chose. */
export function bodyLimitOf(method: string, path: string): number {
  if (UPLOAD_ROUTES.some(([m, pattern]) => m === method && pattern.test(path))) return UPLOAD_BODY_LIMIT_BYTES;
  if (path === "/partner/v1/oauth/token") return TOKEN_BODY_LIMIT_BYTES;
  if (/^\/portal\/(sign-in|invitation|invitations\/[^/]+)\/(options|verify)$/.test(path)) return PASSKEY_BODY_LIMIT_BYTES;
  if (isHtmlDoor(path)) return FORM_BODY_LIMIT_BYTES;
  return JSON_BODY_LIMIT_BYTES;
}

const tooLargePage = (maxSize: number) =>
  html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Too large</title></head><body><h1>That was too large</h1><p>What you sent is too large (more than ${Math.floor(maxSize / 1024)} KB for this page). Go back, make it smaller and send it again.</p></body></html>`;

const TOO_LARGE_PAGE_HEADERS = {
  "Referrer-Policy": "no-referrer",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  "Cache-Control": "no-store",
};

const limiters = new Map<number, ReturnType<typeof bodyLimit>>();
function limiterOf(maxSize: number) {
  let limiter = limiters.get(maxSize);
  if (!limiter) {
    limiter = bodyLimit({
      maxSize,
      onError: (c) => {
        // The refusal page is answered before the door's own header middleware runs, so it carries the strict page headers itself.
        if (isHtmlDoor(c.req.path)) return c.html(tooLargePage(maxSize), 413, TOO_LARGE_PAGE_HEADERS);
        throw new Refusal("payload_too_large", `The request body exceeds ${maxSize} bytes.`);
      },
    });
    limiters.set(maxSize, limiter);
  }
  return limiter;
}

/**
 * One limit for every route, mounted once in the app before any door reads a
 * body (issue 21 item 5): a declared Content-Length over the limit is refused
 * unread; a chunked body is counted as it streams and refused the moment it
 * passes the limit. 413 `payload_too_large` as problem+json on the APIs, an
 * HTML page on the portal and the hub.
 */
export const limitRequestBody = createMiddleware<AppEnv>(async (c, next) => limiterOf(bodyLimitOf(c.req.method, c.req.path))(c, next));
