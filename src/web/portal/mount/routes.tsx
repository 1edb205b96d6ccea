/**
 * The portal, `/portal/…`: server-rendered pages where partners and lenders
 * run their integration and pipeline. Every action calls the same service
 * functions as the API with the same scope an API key would have (the
 * member's organisation and the environment they picked), and is written to
 * the audit log. Sessions are server-side (see services/portal/sessions.ts).
 *
 * Pages register themselves by area (`register…Pages(portal)`): the public
 * ones (sign-in, invitations) before `requireViewer`, the rest after it.
 */
import { Hono, type Context } from "hono";
import { ENVIRONMENTS, type Environment } from "../../../domain/identity/keys";
import { pageErrors } from "../../kit/page-errors";
import { showRefusedPosts, type RefusedPosts } from "../../kit/refused-posts";
import { dispatchAfterWriteOf } from "../../../middleware/dispatch-after-write";
import { sameOriginPosts } from "../../../middleware/same-origin-posts";
import { Refusal } from "../../../lib/refusal";
import { textOf } from "../../kit/form";
import { portalForm } from "../form-action";
import { signOut, switchEnvironment } from "../../../services/portal/sessions";
import { PORTAL_ROUTE, type PortalEnv } from "../context";
import { withPortalHeaders } from "../headers";
import { registerAccessPages, registerPublicAccessPages } from "../access/pages";
import { registerIntegrationPages } from "../integration/pages";
import { lenderOverview, registerLenderPages, withWorkQueueCount } from "../lender/pages";
import { partnerOverview, registerPartnerPages } from "../partner/pages";
import { areaMessagePage, failedMessage, notFoundPage, refusedPage, signedInNotFoundPage, tooLargePage } from "../refused-page";
import type { TooLargePage } from "../../../middleware/body-limit";
import { contextStorage } from "hono/context-storage";
import { requireViewer } from "../require-viewer";
import { clearSessionCookie } from "../session-cookie";
import { Confirm } from "../../kit/confirm";
import { PortalPage } from "../layout";

/**
 * A post over its route's limit (the app's body limit answers with it): the form's page is the
 * address it posted to less its last part (`/leads/{id}/documents` is on `/leads/{id}`).
 */
export const portalTooLargePage: TooLargePage = async (c, limit) => {
  const viewer = (c as unknown as Context<PortalEnv>).get("viewer");
  const formToken = (c as unknown as Context<PortalEnv>).get("formToken");
  const back = c.req.path.split("/").slice(0, -1).join("/") || PORTAL_ROUTE;
  return withPortalHeaders(await c.html(tooLargePage(limit, back.startsWith(PORTAL_ROUTE) ? back : PORTAL_ROUTE, viewer && formToken ? { viewer, formToken } : undefined), 413));
};

const CEREMONY_STEP = /\/(?:options|verify)$/;

/** The signed-in member, when the request got that far (the error handler also answers public pages). */
const signedInOf = (c: Context<PortalEnv>) => {
  const viewer = c.get("viewer");
  return viewer ? { viewer, formToken: c.get("formToken") } : null;
};

/**
 * A refused post is kept for the member's session in the environment it was drawn in (a switch in
 * another tab meanwhile shows the form afresh), without the page's form token.
 */
const portalRefusedPosts: RefusedPosts<Context<PortalEnv>> = {
  sessionOf: (c) => {
    const viewer = c.get("viewer");
    return viewer ? `portal:${viewer.sessionId}:${viewer.environment}` : null;
  },
  formTokenOf: (c) => c.get("formToken"),
};

/**
 * The portal's last word (web/kit/page-errors.ts): a refused form is its page again, not found the
 * 404 page (inside the layout for a signed-in member), a throttled request says when to try again,
 * and anything else is a page with the request id. Never JSON.
 */
const portalErrors = pageErrors<PortalEnv>({
  // Every page answered "not found" to a signed-in member keeps the header and navigation, so it is no dead end.
  notFound: (c) => {
    const signedIn = signedInOf(c);
    return c.html(signedIn ? signedInNotFoundPage(signedIn.viewer, signedIn.formToken) : notFoundPage(), 404);
  },
  refused: (c, refusal) => c.html(areaMessagePage(signedInOf(c), "Refused", refusal.message), refusal.status),
  tryLater: (c, wait, status) => c.html(areaMessagePage(signedInOf(c), "Too many requests", `Too many requests in a short time: nothing was done. Try again in ${wait}.`), status),
  failed: (c, requestId, maybeSaved) => c.html(areaMessagePage(signedInOf(c), "Something went wrong", failedMessage(requestId, maybeSaved)), 500),
  // The passkey script's ceremony steps (`…/options`, `…/verify`: access/ceremony-routes.ts, step-up.tsx) read problem+json.
  scriptCall: (c) => CEREMONY_STEP.test(c.req.path),
  refusedPosts: portalRefusedPosts,
});

export function createPortalRoutes() {
  const portal = new Hono<PortalEnv>();
  portal.use("*", async (c, next) => {
    await next();
    withPortalHeaders(c.res);
  });
  portal.use("*", sameOriginPosts<PortalEnv>((c) => c.html(refusedPage("This form must be sent from the portal itself."), 403)));
  portal.use("*", dispatchAfterWriteOf<PortalEnv>((c) => Boolean(c.get("viewer"))));

  registerPublicAccessPages(portal);

  // Hono's context storage, so the kit's time form reads the member's zone while any page is drawn (web/kit/format.ts).
  portal.use("*", contextStorage());
  portal.use("*", requireViewer);
  portal.use("*", showRefusedPosts(portalRefusedPosts));
  portal.use("*", withWorkQueueCount);

  portal.get("/environment/live", (c) => {
    const viewer = c.get("viewer");
    if (c.get("sandboxHost")) return c.html(refusedPage("This is the sandbox host: it shows sandbox data only. Use the production host to see live."), 400);
    if (viewer.environment === "live") return c.redirect(PORTAL_ROUTE, 303);
    return c.html(
      <PortalPage title="Switch to live" viewer={viewer} formToken={c.get("formToken")}>
        <Confirm
          question={`Switch ${viewer.organisationName} to live?`}
          consequence="Live shows your real clients and real money: leads you submit there reach real funding providers, keys you make there are live keys, and webhooks carry real data. Forms still open in other tabs for sandbox will be refused rather than sent to live."
          next="the portal shows live data until you switch back to sandbox, which you can do at any time from the header."
          action={`${PORTAL_ROUTE}/environment`}
          hidden={{ _form_token: c.get("formToken"), environment: "live" }}
          confirmLabel="Switch to live"
          cancelHref={PORTAL_ROUTE}
          cancelLabel="Stay in sandbox"
        />
      </PortalPage>,
    );
  });

  portal.post(
    "/environment",
    portalForm({
      // The switch is written down in the environment switched to.
      audit: (c, form) => ({ action: "environment.switched", target: textOf(form, "environment"), viewer: { ...c.get("viewer"), environment: textOf(form, "environment") as Environment } }),
      showAgain: (c, refusal) => c.html(refusedPage(refusal.message), refusal.status),
      page: () => PORTAL_ROUTE,
      act: async (c, form) => {
        const chosen = textOf(form, "environment");
        if (!(ENVIRONMENTS as readonly string[]).includes(chosen)) throw new Refusal("invalid_request", "Choose sandbox or live.");
        if (c.get("sandboxHost") && chosen !== "sandbox") throw new Refusal("invalid_request", "This is the sandbox host: it shows sandbox data only. Use the production host to see live.");
        await switchEnvironment(c.get("deps"), c.get("viewer"), chosen as Environment);
        return PORTAL_ROUTE;
      },
    }),
  );

  portal.post(
    "/sign-out",
    portalForm({
      audit: () => ({ action: "session.ended" }),
      showAgain: (c, refusal) => c.html(refusedPage(refusal.message), refusal.status),
      page: () => PORTAL_ROUTE,
      act: async (c) => {
        await signOut(c.get("deps"), c.get("viewer"));
        clearSessionCookie(c);
        return `${PORTAL_ROUTE}/sign-in?notice=signed-out`;
      },
    }),
  );

  registerAccessPages(portal);
  registerIntegrationPages(portal);
  registerPartnerPages(portal);
  registerLenderPages(portal);
  portal.get("/", (c) => (c.get("viewer").organisationKind === "partner" ? partnerOverview(c) : lenderOverview(c)));

  // No such page: the error handler's one 404 page, inside the layout for a signed-in member.
  portal.all("*", () => {
    throw new Refusal("not_found", "No such page.");
  });
  portal.onError(portalErrors);
  return portal;
}
