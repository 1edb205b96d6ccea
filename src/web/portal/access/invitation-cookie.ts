/**
 * The invitation link's exchange, so the token leaves the address bar: the first visit to `/portal/invitations/{token}`
 * trades the token for this cookie and moves the browser on to `/portal/invitation`, whose page and
 * passkey ceremony read the token from the cookie. The token so leaves the address bar, history,
 * `Referer` and request logs after one request. `HttpOnly` (no script reads it), `SameSite=Strict`,
 * `Secure` on https (browsers would drop a Secure cookie on http://localhost), scoped to the
 * acceptance page's path and short-lived: the ceremony takes minutes, and the link itself still
 * works for its 7 days, so a visitor who lets the cookie lapse opens the link again.
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { PORTAL_ROUTE } from "../context";

const INVITATION_COOKIE = "rfs_portal_invitation";
/** The acceptance page; its ceremony lives under it (`/options`, `/verify`). */
export const INVITATION_PAGE = `${PORTAL_ROUTE}/invitation`;
const INVITATION_COOKIE_SECONDS = 30 * 60;

const optionsOf = (c: Context) => ({
  path: INVITATION_PAGE,
  httpOnly: true,
  sameSite: "Strict" as const,
  secure: new URL(c.req.url).protocol === "https:",
});

export function setInvitationCookie(c: Context, token: string) {
  setCookie(c, INVITATION_COOKIE, token, { ...optionsOf(c), maxAge: INVITATION_COOKIE_SECONDS });
}

/** The token the cookie carries; "" when there is none (which opens nothing). */
export const invitationTokenOf = (c: Context) => getCookie(c, INVITATION_COOKIE) ?? "";

export function clearInvitationCookie(c: Context) {
  deleteCookie(c, INVITATION_COOKIE, optionsOf(c));
}
