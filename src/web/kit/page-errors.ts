/**
 * The HTML wing's last word (the portal's and the hub's `onError`), as `api/problem.ts` is the JSON
 * doors': whatever a page handler lets escape is answered with a page, never JSON. A refused form
 * (`RefusedForm`, thrown by the kit's `formAction`, or by its `queryPage` for a refused filter or
 * cursor) is the page again with what was typed and the message beside the field (a refused post's
 * after a 303 to the form's page, web/kit/refused-posts.ts); `not_found` is the area's 404 page; `rate_limited` (and a busy
 * platform's 503) a page saying when to try again, with `Retry-After`; any other refusal a page with
 * its message and status; anything else is logged with the request id exactly as `onError` logs it
 * (`refusalOfError`) and answered with an error page that names the request id.
 */
import type { Context, Env, ErrorHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { onError, refusalOfError } from "../../api/problem";
import { OVERLOAD_RETRY_SECONDS } from "../../lib/overload";
import { pageRefusal, type PageRefusal } from "./refusal";
import { redirectRefused, type RefusedPosts } from "./refused-posts";

/**
 * A form action's or a query page's refusal on its way to the area's handler: the refusal as the page
 * words it, the page showing it, and for a post the path of the form's page, where it is shown again
 * after a redirect (post/redirect/get, web/kit/refused-posts.ts).
 */
export class RefusedForm extends Error {
  constructor(
    readonly refusal: PageRefusal,
    readonly show: () => Response | Promise<Response>,
    readonly page?: string,
  ) {
    super(refusal.message);
  }
}

/** The pages of one area (portal, hub), each drawn in that area's own layout. */
interface ErrorPages<C extends Context> {
  /** Another account's thing, or none: the area's one 404 page. */
  notFound: (c: C) => Response | Promise<Response>;
  /** A refusal outside a form (a bad filter, a closed lead): its message, answered with its status. */
  refused: (c: C, refusal: PageRefusal) => Response | Promise<Response>;
  /** Too many requests, or the platform too busy: when to try again (the handler sets `Retry-After`). */
  tryLater: (c: C, wait: string, status: ContentfulStatusCode) => Response | Promise<Response>;
  /** Our failure: the request id to quote, and whether a post may have been saved before it. */
  failed: (c: C, requestId: string, maybeSaved: boolean) => Response | Promise<Response>;
  /** A call a page's own script makes for JSON (the passkey ceremonies), never a page a browser shows: answered problem+json. */
  scriptCall?: (c: C) => boolean;
  /** The browser session a refused post is kept for, so it is answered 303 to its form's page; without, answered at once. */
  refusedPosts?: RefusedPosts<C>;
}

/** "30 seconds", "1 minute", "5 minutes": a Retry-After a person reads. */
function waitInWords(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.ceil(seconds))} second${Math.ceil(seconds) === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The request id the app's first middleware set (app-env.ts), whichever area's context this is. */
const requestIdOf = (c: Context) => String((c.get as (key: string) => unknown)("requestId") ?? "");

async function answer<C extends Context>(error: unknown, c: C, pages: ErrorPages<C>): Promise<Response> {
  if (error instanceof RefusedForm) {
    // A refused post is redirected to its page, so the browser's history holds a GET: Back and reload never send the form again.
    if (error.page === undefined || pages.refusedPosts === undefined || c.req.method !== "POST") return error.show();
    return redirectRefused(c, await error.show(), error.page, pages.refusedPosts);
  }
  if (pages.scriptCall?.(c)) return onError(error instanceof Error ? error : new Error(String(error)), c);
  const refusal = refusalOfError(error, c);
  switch (refusal.code) {
    case "not_found":
      return pages.notFound(c);
    case "rate_limited":
    case "service_unavailable": {
      const seconds = refusal.retryAfterSeconds ?? OVERLOAD_RETRY_SECONDS;
      c.header("Retry-After", String(seconds));
      return pages.tryLater(c, waitInWords(seconds), refusal.code === "rate_limited" ? 429 : 503);
    }
    case "internal_error":
      return pages.failed(c, requestIdOf(c), !READS.has(c.req.method));
    default:
      return pages.refused(c, pageRefusal(refusal));
  }
}

/**
 * The area's `onError`. A page that fails while being drawn for an error (the form's page again, whose
 * record has gone meanwhile) is answered in turn, so the chain always ends in a page.
 */
export function pageErrors<E extends Env>(pages: ErrorPages<Context<E>>): ErrorHandler<E> {
  return async (error, c) => {
    let current: unknown = error;
    for (let depth = 0; ; depth++) {
      try {
        return await answer(current, c, pages);
      } catch (next) {
        // A second failure while drawing the page for the first: the plain failure page, which reads nothing.
        if (depth >= 1) return pages.failed(c, requestIdOf(c), !READS.has(c.req.method));
        current = next;
      }
    }
  };
}
