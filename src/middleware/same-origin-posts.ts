import type { Context, MiddlewareHandler } from "hono";

/**
 * Forms post only from our own pages. Sec-Fetch-Site decides when the browser
 * sends it. Under `Referrer-Policy: no-referrer` browsers send `Origin: null`
 * on form posts, so a null Origin passes only beside `Sec-Fetch-Site:
 * same-origin`; any real Origin must be ours. A client that sends neither
 * header is not a browser, so there is no victim session to forge from.
 * Shared by the client hub and the portal; each answers a refusal its own way.
 */
export function sameOriginPosts<E extends { Bindings: { PUBLIC_URL?: string } }>(refuse: (c: Context<E>) => Response | Promise<Response>): MiddlewareHandler<E> {
  return async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const site = c.req.header("Sec-Fetch-Site");
    const origin = c.req.header("Origin");
    const ours = new Set([new URL(c.req.url).origin]);
    if (c.env.PUBLIC_URL) ours.add(new URL(c.env.PUBLIC_URL).origin);
    const crossSite =
      (site !== undefined && site !== "same-origin") || (origin !== undefined && origin !== "null" && !ours.has(origin)) || (origin === "null" && site === undefined);
    if (crossSite) return refuse(c);
    return next();
  };
}
