import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Context } from "hono";
import { PORTAL_ROUTE } from "./context";

/**
 * The session cookie: `HttpOnly` (no script reads it), `Secure` (browsers
 * treat http://localhost as secure, so local development works),
 * `SameSite=Lax` (a cross-site post carries no session) and scoped to the
 * portal's path. It holds a random token; D1 keeps only its hash.
 */
export const SESSION_COOKIE = "rfs_portal_session";

export const sessionTokenOf = (c: Context) => getCookie(c, SESSION_COOKIE);

export function setSessionCookie(c: Context, token: string) {
  setCookie(c, SESSION_COOKIE, token, { httpOnly: true, secure: true, sameSite: "Lax", path: PORTAL_ROUTE });
}

export function clearSessionCookie(c: Context) {
  deleteCookie(c, SESSION_COOKIE, { httpOnly: true, secure: true, sameSite: "Lax", path: PORTAL_ROUTE });
}
