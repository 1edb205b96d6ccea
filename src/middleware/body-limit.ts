import type { Context, MiddlewareHandler, Next } from "hono";
import { createMiddleware } from "hono/factory";
import { LinearRouter } from "hono/router/linear-router";
import type { RouterRoute } from "hono/types";
import { COMPOSED_HANDLER } from "hono/utils/constants";
import type { AppEnv } from "../app-env";
import { Refusal } from "../lib/refusal";

/** JSON bodies of the APIs above this size are refused with 413 before they are parsed. */
export const JSON_BODY_LIMIT_BYTES = 256 * 1024;
/** File uploads (documents, agreements): the limit of a route that declares `takesFiles()`, and of no other. */
export const UPLOAD_BODY_LIMIT_BYTES = 20 * 1024 * 1024;
export const TOKEN_BODY_LIMIT_BYTES = 8 * 1024;
/** A portal or hub form without a file (the longest is a lead with its notes). */
export const FORM_BODY_LIMIT_BYTES = 64 * 1024;
/** A WebAuthn ceremony answer (a passkey's attestation is a few KB). */
export const PASSKEY_BODY_LIMIT_BYTES = 32 * 1024;

/** A property of the `takesFiles` marker: the body limit of the route it is registered on. */
const FILE_LIMIT = Symbol("takes files");

type FileMarker = MiddlewareHandler & { [FILE_LIMIT]: number };

/**
 * Declares, on the route itself, that it takes files of up to `bytes` in one body: registered as one
 * of the route's handlers (`hub.post(path, takesFiles(), handler)`), so the body limit reads it from
 * the route table and every address the route is mounted at gets it. The API router adds it to every
 * operation whose declared body is a file (src/api/router.ts). It does nothing when it runs.
 */
export function takesFiles(bytes: number = UPLOAD_BODY_LIMIT_BYTES): MiddlewareHandler {
  const marker: FileMarker = Object.assign(async (_c: Context, next: Next) => next(), { [FILE_LIMIT]: bytes });
  return marker;
}

/** The declared limit of a route handler, looking through the wrapper `app.route` puts around the handlers of an app with its own onError. */
function fileLimitOf(handler: unknown): number | undefined {
  for (let h = handler as Record<string | symbol, unknown> | undefined; h; h = h[COMPOSED_HANDLER] as typeof h) {
    if (typeof h[FILE_LIMIT] === "number") return h[FILE_LIMIT];
  }
  return undefined;
}

/** A route of the table that takes files: its method, its path as Hono writes it, and its limit. */
interface FileRoute {
  method: string;
  path: string;
  bytes: number;
}

/** The routes of an app's route table that take files (declared with `takesFiles`). */
export function fileRoutesOf(routes: readonly RouterRoute[]): FileRoute[] {
  const found = new Map<string, FileRoute>();
  for (const r of routes) {
    const bytes = fileLimitOf(r.handler);
    if (bytes !== undefined) found.set(`${r.method} ${r.path}`, { method: r.method, path: r.path, bytes });
  }
  return [...found.values()];
}

/** Matches a request to the file routes of a table with Hono's own path rules (parameters, their patterns). */
function fileLimits(routes: readonly RouterRoute[]) {
  const router = new LinearRouter<number>();
  for (const r of fileRoutesOf(routes)) router.add(r.method, r.path, r.bytes);
  return (method: string, path: string) => {
    const matched = router.match(method, path)[0] as [number, unknown][];
    return matched.length > 0 ? Math.max(...matched.map(([bytes]) => bytes)) : undefined;
  };
}

const isHtmlDoor = (path: string) => /^\/(portal|hub)(\/|$)/.test(path);

/** The limit of a request to a route that takes no files: sized by what the route takes, never by the Content-Type the client chose. */
function formLimitOf(path: string): number {
  if (path === "/partner/v1/oauth/token") return TOKEN_BODY_LIMIT_BYTES;
  if (/^\/portal\/(sign-in|invitation|invitations\/[^/]+)\/(options|verify)$/.test(path)) return PASSKEY_BODY_LIMIT_BYTES;
  if (isHtmlDoor(path)) return FORM_BODY_LIMIT_BYTES;
  return JSON_BODY_LIMIT_BYTES;
}

/** The limit a refusal names: its size, and whether the route takes files (the page's advice differs). */
interface BodyLimit {
  bytes: number;
  files: boolean;
}

/** A door's page for a body over its route's limit (the portal and the hub); a door without one answers problem+json. */
export type TooLargePage = (c: Context<AppEnv>, limit: BodyLimit) => Response | Promise<Response>;

/** The refusal: the door's own page where it has one, problem+json (through `onError`) elsewhere. */
async function tooLarge(c: Context<AppEnv>, limit: BodyLimit, page: TooLargePage | undefined): Promise<Response> {
  if (page) return page(c, limit);
  throw new Refusal("payload_too_large", `The request body exceeds ${limit.bytes} bytes.`);
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
 * One limit for every route, mounted once in each door's app before the door, sized
 * by the route: a route that takes files declares its limit in the route table (`takesFiles`, issue
 * 38), read from `routes` on the first request; any other route gets the limit of its kind of body. A
 * declared Content-Length over the limit is refused unread. A chunked body is not read here: it is
 * handed on as a counting stream, read only by the handler that needs it, so every check a door makes
 * on headers alone (the cross-site check, the portal and hub sessions, a form token in a header) comes
 * before any byte of the body is read. A read that passes the limit fails, and whatever the door made
 * of that failure is replaced by the 413: problem+json `payload_too_large` on the APIs, the door's own
 * page (`page`) on the portal and the hub.
 */
export function limitRequestBody(door: { routes: () => readonly RouterRoute[]; page: () => TooLargePage | undefined }) {
  let limitOfFiles: ReturnType<typeof fileLimits> | undefined;
  return createMiddleware<AppEnv>(async (c, next) => {
    const raw = c.req.raw;
    if (!raw.body) return next();
    limitOfFiles ??= fileLimits(door.routes());
    const files = limitOfFiles(c.req.method, c.req.path);
    const limit: BodyLimit = { bytes: files ?? formLimitOf(c.req.path), files: files !== undefined };
    const declared = raw.headers.get("content-length");
    if (declared !== null && !raw.headers.has("transfer-encoding")) {
      // The runtime holds the body to its declared length, so a declared length within the limit bounds it.
      if (Number.parseInt(declared, 10) > limit.bytes) return tooLarge(c, limit, door.page());
      return next();
    }
    const counted = countedBody(raw.body, limit.bytes);
    c.req.raw = new Request(raw, { body: counted.stream });
    await next();
    if (counted.exceeded()) {
      // Whatever the door answered to the failed read is dropped, headers and all.
      c.res = undefined;
      c.res = new Response(null);
      c.res = await tooLarge(c, limit, door.page());
    }
  });
}
