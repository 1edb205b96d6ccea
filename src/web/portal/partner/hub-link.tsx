/**
 * The partner's "New hub link" (issue 21 item 6): the lead page's button leads to a confirm page
 * (web/kit/confirm.tsx), whose one form posts the rotation through the API's own service
 * (rotateLeadHubLink, as POST /partner/v1/leads/{id}/hub-link). The answer shows the new link with a
 * copy button and says the old one is dead (the lead page shows the current link too). The form token is single-use and bound to the
 * environment it was rendered for, as every portal form's (require-viewer.ts), so a second post shows
 * "Already sent" rather than a second link. Another organisation's lead, or one of the other
 * environment, is the same 404 as no lead.
 */
import type { Hono } from "hono";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { rotateLeadHubLink } from "../../../services/hub/hub-links";
import { requireLead } from "../../../services/leads/leads";
import { linksFor } from "../../../services/views/links";
import { Confirm } from "../../kit/confirm";
import { Copyable } from "../../kit/copy";
import { formatFor } from "../../kit/format";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { PortalPage } from "../layout";
import { signedInMessagePage } from "../refused-page";
import { portalForm } from "../form-action";

export const hubLinkPath = (leadId: string) => `${PORTAL_ROUTE}/leads/${encodeURIComponent(leadId)}/hub-link`;

/** The viewer's lead; another organisation's or environment's, or none, is not_found: the portal's 404 page. */
const leadOf = (c: PortalContext, id: string) => requireLead(c.get("deps"), scopeOfViewer(c.get("viewer")), id);

export function registerHubLinkPages(portal: Hono<PortalEnv>) {
  portal.get("/leads/:id/hub-link", async (c) => {
    const lead = await leadOf(c, c.req.param("id"));
    const back = `${PORTAL_ROUTE}/leads/${encodeURIComponent(lead.id)}`;
    return c.html(
      <PortalPage title="New hub link" viewer={c.get("viewer")} formToken={c.get("formToken")}>
        <Confirm
          question="Make a new hub link for this lead?"
          // The business and the reference a person knows the lead by; never its raw id (issue 45 item 10).
          facts={[
            ["Business", lead.business?.name ?? "Unnamed business"],
            ["Lead", lead.reference],
          ]}
          consequence="The old link stops working at once: whoever opens it sees “not found”, and anyone with the hub open through it is signed out of it. Send the new link to your client yourself; it works for 30 days."
          next="the new link is shown on the next page, with a button to copy it."
          action={hubLinkPath(lead.id)}
          hidden={{ _form_token: c.get("formToken") }}
          confirmLabel="Make a new link"
          cancelHref={back}
          cancelLabel="Keep the current link"
        />
      </PortalPage>,
    );
  });

  portal.post(
    "/leads/:id/hub-link",
    portalForm({
      audit: (c) => ({ action: "lead.hub_link_rotated", target: c.req.param("id") ?? "" }),
      showAgain: (c, refusal) => c.html(signedInMessagePage(c.get("viewer"), c.get("formToken"), "Refused", refusal.message), refusal.status),
      act: (c) => rotated(c, c.req.param("id") ?? ""),
    }),
  );
}

/** The rotation, and the page that shows the new link once (never in a redirect). */
async function rotated(c: PortalContext, id: string) {
  const viewer = c.get("viewer");
  // The lead's market gives the expiry's time zone (the kit's one time form, as on the lead page).
  const lead = await leadOf(c, id);
  const link = await rotateLeadHubLink(c.get("deps"), linksFor(c.env), scopeOfViewer(viewer), id);
  const back = `${PORTAL_ROUTE}/leads/${encodeURIComponent(link.id)}`;
  return c.html(
    <PortalPage title="New hub link" viewer={viewer} formToken={c.get("formToken")} feedback={{ notice: "A new hub link was made. The old link no longer works." }}>
      <section aria-labelledby="hub-link-heading">
        <h2 id="hub-link-heading">The client's new hub link</h2>
        <p>
          <strong>Copy it and send it to your client.</strong> The old link is dead: whoever opens it sees “not found”, and hub sessions opened
          with it have ended. This link works until <time datetime={link.expires_at}>{formatFor(lead.country).time(link.expires_at)}</time>.
        </p>
        <p>
          <Copyable value={link.upload_url} anchor="new-hub-link" what="the client's hub link" secret />
        </p>
        <p>
          <a href={back}>Back to the lead</a>
        </p>
      </section>
    </PortalPage>,
  );
}
