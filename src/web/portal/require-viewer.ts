import { createMiddleware } from "hono/factory";
import { signingSecretOf } from "../../lib/signing-secret";
import { formTokenMatches, formTokenOf, viewerOfSession } from "../../services/portal/sessions";
import { PORTAL_ROUTE, type PortalEnv } from "./context";
import { refusedPage } from "./refused-page";
import { sessionTokenOf } from "./session-cookie";

/**
 * Every portal page but sign-in and invitations: no live session → the sign-in
 * page (303 after a post, so a form is never re-sent). Every post must carry
 * the session's form token (`_form_token`); `sameOriginPosts` has already
 * refused cross-site posts by their headers.
 */
export const requireViewer = createMiddleware<PortalEnv>(async (c, next) => {
  const token = sessionTokenOf(c);
  const viewer = token ? await viewerOfSession(c.get("db"), token) : null;
  if (!viewer) return c.redirect(`${PORTAL_ROUTE}/sign-in`, 303);
  const secret = signingSecretOf(c.env);
  c.set("viewer", viewer);
  c.set("formToken", await formTokenOf(secret, viewer));
  if (c.req.method === "POST") {
    const presented = await presentedFormToken(c.req.raw.clone());
    if (!(await formTokenMatches(secret, viewer, presented))) return c.html(refusedPage("This form has expired or was not sent from the portal. Go back, reload the page and send it again."), 403);
  }
  return next();
});

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
