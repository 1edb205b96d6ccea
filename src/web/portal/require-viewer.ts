import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { DEFAULT_TIME_ZONE } from "../../domain/portal/profile";
import type { AppEnv } from "../../app-env";
import { useEnvironment } from "../../middleware/database";
import { claimForm, settleForm } from "../../services/portal/form-uses";
import { formTokenOf, openFormToken, viewerOfSession } from "../../services/portal/sessions";
import { environmentSwitchLabel, LABELS } from "../kit/format";
import { isRefusedRedirect } from "../kit/refused-posts";
import { PORTAL_ROUTE, type PortalEnv } from "./context";
import { signedInMessagePage } from "./refused-page";
import { sessionTokenOf } from "./session-cookie";

/** Posts that act on no environment's data: switching itself, and signing out. */
const ENVIRONMENT_FREE_POSTS = new Set([`${PORTAL_ROUTE}/environment`, `${PORTAL_ROUTE}/sign-out`]);

/**
 * The WebAuthn script's JSON posts while signed in. Their single use is their challenge's (options only
 * issues a challenge; verify deletes it before anything is written), and the script may send them again
 * with the page's token after a closed passkey prompt, so they take no form claim. Every other post is
 * claimed, whichever way its token came, so no header is a way around the claim.
 */
const CEREMONY_POSTS = new Set([`${PORTAL_ROUTE}/passkeys/options`, `${PORTAL_ROUTE}/passkeys/verify`, `${PORTAL_ROUTE}/step-up/options`, `${PORTAL_ROUTE}/step-up/verify`]);

/**
 * Every portal page but sign-in and invitations: no live session → the sign-in
 * page (303 after a post, so a form is never re-sent). Every post must carry
 * a form token of this session (`_form_token`); `sameOriginPosts` has already
 * refused cross-site posts by their headers. Then:
 * - a form rendered for another environment than the session's now is refused (409), nothing written;
 * - a rendered form acts once per action: a second post of it is shown the first one's outcome.
 * On a sandbox host (`SANDBOX_HOSTNAMES`) the session is always shown sandbox.
 */
export const requireViewer = createMiddleware<PortalEnv>(async (c, next) => {
  const token = sessionTokenOf(c);
  const session = token ? await viewerOfSession(c.get("deps"), token) : null;
  if (!session) return c.redirect(signInFor(c.req.method, c.req.url), 303);
  const seen = c.get("sandboxHost") ? { ...session, environment: "sandbox" as const } : session;
  const viewer = { ...seen, path: c.req.path };
  c.set("viewer", viewer);
  // Every time the page draws is in the member's zone (web/kit/format.ts reads it through the context storage).
  c.set("readerTimeZone", viewer.timeZone ?? DEFAULT_TIME_ZONE);
  // The session's environment chooses the data database the pages read (docs/capacity.md); the session itself is a control row.
  useEnvironment(c as unknown as Context<AppEnv>, viewer.environment);
  const pageToken = await formTokenOf(c.get("deps"), viewer);
  c.set("formToken", pageToken);
  if (c.req.method !== "POST") return next();
  const message = (title: string, text: string) => signedInMessagePage(viewer, pageToken, title, text);

  const presented = await presentedFormToken(c.req.raw.clone());
  const form = await openFormToken(c.get("deps"), viewer, presented);
  if (!form) return c.html(message("Refused", "This form has expired or was not sent from the portal. Go back, reload the page and send it again."), 403);
  if (form.environment !== viewer.environment && !ENVIRONMENT_FREE_POSTS.has(c.req.path)) {
    return c.html(
      message(
        "Environment changed",
        // The header's words: the badge's label and the switch's own button.
        `This form was opened in the ${LABELS.environment(form.environment)} environment, but the portal now shows the ${LABELS.environment(viewer.environment)} environment (it was switched in another tab or window). Nothing was saved. Reload the page to send it in the ${LABELS.environment(viewer.environment)} environment, or go back with “${environmentSwitchLabel(form.environment)}” in the header first.`,
      ),
      409,
    );
  }
  if (CEREMONY_POSTS.has(c.req.path)) return next();

  const use = { sessionId: viewer.sessionId, nonce: form.nonce, action: c.req.path };
  const claim = await claimForm(c.get("deps"), use);
  if (claim.kind === "replay") {
    if (claim.location) return c.redirect(claim.location, claim.status as 301 | 302 | 303);
    return c.html(message("Already sent", "This form was already sent and acted on, so it was not sent again. Open the page again to see the result."), 409);
  }
  if (claim.kind === "in_flight") {
    return c.html(message("Still sending", "This form is still being sent from an earlier click. Wait a moment, then open the page again to see the result."), 409);
  }
  try {
    await next();
  } catch (error) {
    await settleForm(c.get("deps"), use, { refused: false, status: 500, location: null });
    throw error;
  }
  // A refusal (4xx, or its 303 to the form's page: web/kit/refused-posts.ts) frees the form for a corrected post; any other answer is replayed to a second post.
  const refused = (c.res.status >= 400 && c.res.status < 500) || isRefusedRedirect(c.res);
  await settleForm(c.get("deps"), use, { refused, status: c.res.status, location: c.res.headers.get("Location") });
});

/** Sign-in, carrying the page a GET asked for (a deep link) so the person lands there once signed in; a post's page is not replayed. */
function signInFor(method: string, url: string) {
  const { pathname, search } = new URL(url);
  const asked = `${pathname}${search}`;
  if (method !== "GET" || pathname === PORTAL_ROUTE || pathname === `${PORTAL_ROUTE}/`) return `${PORTAL_ROUTE}/sign-in`;
  return `${PORTAL_ROUTE}/sign-in?next=${encodeURIComponent(asked)}`;
}

/** The token travels in the form body (or in `X-Form-Token` for the WebAuthn script's JSON posts). */
async function presentedFormToken(request: Request): Promise<string | undefined> {
  const header = request.headers.get("X-Form-Token");
  if (header) return header;
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data")) return undefined;
  try {
    const value = (await request.formData()).get("_form_token");
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}
