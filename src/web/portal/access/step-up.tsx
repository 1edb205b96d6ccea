/**
 * The step-up, for what would let a stolen session stay in or move money: adding a passkey, making a new sign-in link and creating a live key
 * need a passkey proof of the last `STEP_UP_SECONDS` in this session. Without one, a post of those
 * actions is answered with this page (403, nothing done): the member confirms with their passkey (the
 * portal's one script runs the ceremony against `/portal/step-up/options|verify`), lands back on the
 * page they came from and sends the action again.
 */
import type { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { passkeyFresh, STEP_UP_SECONDS, type PortalViewer } from "../../../domain/portal/viewer";
import { relyingPartyOf } from "../../../domain/portal/relying-party";
import { Refusal } from "../../../lib/refusal";
import { epochSeconds } from "../../../services/deps";
import { completeStepUp, stepUpOptions } from "../../../services/portal/passkeys";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { PortalPage } from "../layout";
import { PasskeyCeremony } from "./ceremony-block";
import { answerOf } from "./ceremony-routes";
import { landingOf } from "./deep-link";
import { PASSKEYS_SCRIPT_PATH } from "./passkeys-asset";

const MINUTES = STEP_UP_SECONDS / 60;

/** The button that proves a passkey for this session and then opens `next` (a portal path). */
export const StepUpCeremony = (p: { formToken: string; next: string }) => (
  <PasskeyCeremony
    ceremony="sign-in"
    optionsUrl={`${PORTAL_ROUTE}/step-up/options`}
    verifyUrl={`${PORTAL_ROUTE}/step-up/verify?next=${encodeURIComponent(p.next)}`}
    label="Confirm with your passkey"
    formToken={p.formToken}
    doneMessage="Confirmed. Taking you back…"
  />
);

const stepUpPage = (p: { viewer: PortalViewer & { path?: string }; formToken: string; next: string }) => (
  <PortalPage title="Confirm it is you" viewer={p.viewer} formToken={p.formToken} scripts={[PASSKEYS_SCRIPT_PATH]}>
    <p>
      Adding a passkey, making a new sign-in link and creating a live API key need your passkey, not only a signed-in browser. Nothing was done yet: confirm
      with your passkey, then send it again. The confirmation lasts {MINUTES} minutes in this browser.
    </p>
    <StepUpCeremony formToken={p.formToken} next={p.next} />
  </PortalPage>
);

export const passkeyCheckedNow = (c: PortalContext) => passkeyFresh(c.get("viewer").passkeyVerifiedAt, epochSeconds(c.get("deps")));

/**
 * Guards a step-up action. `returnTo` is the page the member goes back to once confirmed; `applies`
 * narrows the guard (a key is a step-up action only in live). A JSON post (the passkey script's) is
 * refused as problem+json, which the script shows; a form post gets the page.
 */
export const requireFreshPasskey = (returnTo: (c: PortalContext) => string, applies: (c: PortalContext) => boolean = () => true) =>
  createMiddleware<PortalEnv>(async (c, next) => {
    if (!applies(c) || passkeyCheckedNow(c)) return next();
    if ((c.req.header("Content-Type") ?? "").startsWith("application/json")) {
      throw new Refusal("unauthorized", `Confirm it is you with your passkey first (it lasts ${MINUTES} minutes): reload the page and press "Confirm with your passkey".`, { field: "passkey" });
    }
    return c.html(stepUpPage({ viewer: c.get("viewer"), formToken: c.get("formToken"), next: returnTo(c) }), 403);
  });

/** The step-up ceremony's JSON posts (signed in; `CEREMONY_POSTS` in require-viewer.ts). */
export function registerStepUpRoutes(portal: Hono<PortalEnv>) {
  const partyOf = (c: PortalContext) => relyingPartyOf(c.req.url, c.env.PUBLIC_URL);
  portal.post("/step-up/options", async (c) => {
    const { challengeId, options } = await stepUpOptions(c.get("deps"), partyOf(c), c.get("viewer"));
    return c.json({ challenge_id: challengeId, options });
  });
  portal.post("/step-up/verify", async (c) => {
    await completeStepUp(c.get("deps"), partyOf(c), c.get("viewer"), await answerOf(c));
    return c.json({ redirect: landingOf(c.req.query("next")) });
  });
}
