/**
 * A lead of the member's own organisation opened in the other environment (a bookmarked live lead while
 * the portal shows the sandbox): instead of a bare "Not found", the page says the lead
 * is in the other environment and offers to switch and open it. Nothing of the lead is shown before the
 * switch (answered 200: the page is an offer, not a missing page), and another account's id, or an unknown one, is the plain 404 (the check is scoped in SQL to
 * the member's organisation).
 */
import type { Hono } from "hono";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { Refusal } from "../../../lib/refusal";
import { otherEnvironmentOfLead } from "../../../services/leads/leads";
import { switchEnvironment } from "../../../services/portal/sessions";
import { environmentInWords, environmentSwitchLabel } from "../../kit/format";
import { type PortalContext, type PortalEnv } from "../context";
import type { Environment } from "../../../domain/identity/keys";
import { FormToken, PortalPage } from "../layout";
import { portalForm } from "../form-action";
import { refusedPage } from "../refused-page";
import { leadPath } from "./lead-view";
import { pageAbove } from "../../kit/form";

/** The environment the lead is in when the member may switch to it there; null when it is not theirs or the host cannot show it. */
async function switchableEnvironment(c: PortalContext, id: string) {
  const other = await otherEnvironmentOfLead(c.get("deps"), scopeOfViewer(c.get("viewer")), id);
  // The sandbox host shows sandbox only: a live lead there stays "not found".
  return other === "live" && c.get("sandboxHost") ? null : other;
}

/** A lead the member cannot see here: the offer to switch when the lead is their organisation's in the other environment. */
export async function leadNotHere(c: PortalContext, id: string) {
  const other = await switchableEnvironment(c, id);
  if (!other) throw new Refusal("not_found", "No lead with that id in this account.");
  const viewer = c.get("viewer");
  const label = `${environmentSwitchLabel(other)} and open it`;
  return c.html(
    <PortalPage title={`This lead is in ${environmentInWords(other)}`} viewer={viewer} formToken={c.get("formToken")}>
      <p>
        The portal shows {viewer.organisationName}'s {environmentInWords(viewer.environment)} environment; this lead is in {environmentInWords(other)}.
      </p>
      <form method="post" action={`${leadPath(id)}/open-in-other-environment`}>
        <FormToken token={c.get("formToken")} />
        <button type="submit">{label}</button>
      </form>
      <p class="muted">Switching changes the environment for every tab of this browser, as the switch in the header does.</p>
    </PortalPage>,
  );
}

export function registerLeadElsewhere(portal: Hono<PortalEnv>) {
  portal.post(
    "/leads/:id/open-in-other-environment",
    portalForm({
      // The switch is written down in the environment switched to (there are two: the other one).
      audit: (c) => {
        const other: Environment = c.get("viewer").environment === "live" ? "sandbox" : "live";
        return { action: "environment.switched", target: other, viewer: { ...c.get("viewer"), environment: other } };
      },
      showAgain: (c, refusal) => c.html(refusedPage(refusal.message), refusal.status),
      page: pageAbove(),
      act: async (c) => {
        const id = c.req.param("id")!;
        const other = await switchableEnvironment(c, id);
        if (!other) throw new Refusal("not_found", "No lead with that id in this account.");
        await switchEnvironment(c.get("deps"), c.get("viewer"), other);
        return leadPath(id);
      },
    }),
  );
}
