import type { Context } from "hono";
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

/** The refusal: the HTML page on the portal and the hub, problem+json (through `onError`) elsewhere. */
async function tooLarge(c: Context<AppEnv>, maxSize: number): Promise<Response> {
  // The refusal page is answered before or after the door's own header middleware, so it carries the strict page headers itself.
  if (isHtmlDoor(c.req.path)) return c.html(tooLargePage(maxSize), 413, TOO_LARGE_PAGE_HEADERS);
  throw new Refusal("payload_too_large", `The request body exceeds ${maxSize} bytes.`);
}

/**
 * The body as a stream that counts what its reader takes and fails the read that passes
 * `maxSize`. Nothing is pulled from the client until a handler reads (no read ahead), so a
 * request refused by its headers (no session, another site) never has its body read.
 */
function countedBody(body: ReadableStream<Uint8Array>, maxSize: number) {
  const reader = body.getReader();
  let size = 0;
  let exceeded = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        size += value.byteLength;
        if (size > maxSize) {
          exceeded = true;
          controller.error(new Refusal("payload_too_large", `The request body exceeds ${maxSize} bytes.`));
          await reader.cancel().catch(() => {});
          return;
        }
        controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, exceeded: () => exceeded };
}

/**
 * One limit for every route, mounted once in the app before any door (issue 21 item 5). A declared
 * Content-Length over the limit is refused unread. A chunked body is not read here: it is handed on
 * as a counting stream, read only by the handler that needs it, so every check a door makes on
 * headers alone (the cross-site check, the portal and hub sessions, a form token in a header) comes
 * before any byte of the body is read. A read that passes the limit fails, and whatever the door
 * made of that failure is replaced by the 413: problem+json `payload_too_large` on the APIs, an
 * HTML page on the portal and the hub.
 */
export const limitRequestBody = createMiddleware<AppEnv>(async (c, next) => {
  const maxSize = bodyLimitOf(c.req.method, c.req.path);
  const raw = c.req.raw;
  if (!raw.body) return next();
  const declared = raw.headers.get("content-length");
  if (declared !== null && !raw.headers.has("transfer-encoding")) {
    // The runtime holds the body to its declared length, so a declared length within the limit bounds it.
    if (Number.parseInt(declared, 10) > maxSize) return tooLarge(c, maxSize);
    return next();
  }
  const counted = countedBody(raw.body, maxSize);
  c.req.raw = new Request(raw, { body: counted.stream });
  await next();
  if (counted.exceeded()) {
    // Whatever the door answered to the failed read is dropped, headers and all.
    c.res = undefined;
    c.res = new Response(null);
    c.res = await tooLarge(c, maxSize);
  }
});
