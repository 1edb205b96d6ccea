/**
 * Post/redirect/get for a refused form (services/portal/refused-posts.ts keeps the page): the area's
 * error handler (page-errors.ts) answers a refused post 303 to the form's page with a one-time id
 * (`?refused=`), and `showRefusedPosts`, on that page's GET, shows the page drawn for the refusal with
 * the refusal's status. Back or reload then never asks to send the form again: the post's history entry
 * is the GET. What is kept is the page as drawn (what was typed, minus what a form never shows again,
 * and the messages), so every form of every area works alike without a second way of drawing itself;
 * the area's form token is taken out and the GET's own put back.
 */
import type { Context, Env, MiddlewareHandler } from "hono";
import { keepRefusedPost, takeRefusedPost } from "../../services/portal/refused-posts";
import type { Deps } from "../../services/deps";

/** How an area binds a refused post to its browser session. */
export interface RefusedPosts<C extends Context> {
  /** The browser session that posted (its secret or id, stored hashed): null when there is none to bind, and the refusal is answered at once. */
  sessionOf: (c: C) => string | null;
  /** The form token the area's pages carry, kept out of storage. */
  formTokenOf?: (c: C) => string | undefined;
}

/** The query parameter of the redirect. */
const REFUSED_PARAM = "refused";

/** Where a kept page had the area's form token: the GET puts its own there. */
const TOKEN_MARK = "rfs-form-token-kept-out";

/** A refused post's answer: its 303 to the form's page with the kept page's id (a post that wrote nothing, as a 4xx). */
export function isRefusedRedirect(res: Response): boolean {
  const location = res.headers.get("Location");
  return res.status === 303 && location !== null && new URL(location, "https://refused.invalid").searchParams.has(REFUSED_PARAM);
}

const depsOf = (c: Context): Deps => (c.get as (key: string) => unknown)("deps") as Deps;

/** The refused post kept and answered 303 to its form's page; the refusal as it was drawn when there is no session to keep it for. */
export async function redirectRefused<C extends Context>(c: C, shown: Response, page: string, posts: RefusedPosts<C>): Promise<Response> {
  const session = posts.sessionOf(c);
  if (session === null) return shown;
  const token = posts.formTokenOf?.(c);
  const html = await shown.text();
  const id = await keepRefusedPost(depsOf(c), { session, path: page, status: shown.status, page: token ? html.replaceAll(token, TOKEN_MARK) : html });
  return c.redirect(`${page}?${REFUSED_PARAM}=${encodeURIComponent(id)}`, 303);
}

/**
 * On a page's GET with `?refused=`: the page kept for this session at this path, once, with its
 * refusal's status; an unknown, used, expired or another session's id goes on to the page, drawn afresh.
 */
export function showRefusedPosts<E extends Env>(posts: RefusedPosts<Context<E>>): MiddlewareHandler<E> {
  return async (c, next) => {
    const id = c.req.method === "GET" ? c.req.query(REFUSED_PARAM) : undefined;
    const session = id ? posts.sessionOf(c) : null;
    if (!id || session === null) return next();
    const kept = await takeRefusedPost(depsOf(c), { id, session, path: c.req.path });
    if (!kept) return next();
    const token = posts.formTokenOf?.(c) ?? "";
    return c.html(kept.page.replaceAll(TOKEN_MARK, token), kept.status as 400);
  };
}
