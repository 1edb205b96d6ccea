/**
 * The lead page's routes: the page itself, the accept review and the offer
 * decisions; the other actions are in lead-actions.tsx, the page's parts in
 * lead-page.tsx and its sections.
 */
import type { Hono } from "hono";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { acceptOffer, declineOffer } from "../../../services/leads/offers";
import { recordPortalAction } from "../../../services/portal/audit";
import { PORTAL_ROUTE, type PortalEnv } from "../context";
import { notFoundPage } from "../refused-page";
import { registerLeadActions } from "./lead-actions";
import { registerPersonsPages } from "./persons";
import { registerHubLinkPages } from "./hub-link";
import { AcceptReviewPage } from "./lead-accept";
import { leadNotHere, registerLeadElsewhere } from "./lead-elsewhere";
import { LEAD_NOTICES, leadOfViewer, leadPage, refusedOnLeadPage } from "./render-lead";

export { stateLabel } from "./lead-view";

export function registerLeadDetailPages(portal: Hono<PortalEnv>) {
  registerPersonsPages(portal);
  registerHubLinkPages(portal);
  registerLeadActions(portal, async (c, id, error, status) => {
    const lead = await leadOfViewer(c, id);
    if (!lead) return c.html(notFoundPage(), 404);
    return c.html(await leadPage(c, lead, { error }), status);
  });
  registerLeadElsewhere(portal);
  portal.get("/leads/:id", async (c) => {
    const lead = await leadOfViewer(c, c.req.param("id"));
    if (!lead) return leadNotHere(c, c.req.param("id"));
    return c.html(await leadPage(c, lead, { notice: LEAD_NOTICES[c.req.query("done") ?? ""] ?? null }));
  });

  portal.get("/leads/:id/offers/:offerId/accept", async (c) => {
    const lead = await leadOfViewer(c, c.req.param("id"));
    const offer = lead?.offers.find((o) => o.id === c.req.param("offerId"));
    if (!lead || !offer) return c.html(notFoundPage(), 404);
    if (offer.state !== "presented") return c.redirect(`${PORTAL_ROUTE}/leads/${encodeURIComponent(lead.id)}#offers`, 303);
    return c.html(<AcceptReviewPage c={c} lead={lead} offer={offer} />);
  });

  portal.post("/leads/:id/offers/decline", async (c) => {
    const viewer = c.get("viewer");
    const id = c.req.param("id");
    const form = await c.req.formData();
    const offerId = String(form.get("offer_id") ?? "");
    try {
      await declineOffer(c.get("deps"), scopeOfViewer(viewer), id, offerId, String(form.get("reason_code") ?? ""));
    } catch (error) {
      return refusedOnLeadPage(c, id, error);
    }
    await recordPortalAction(c.get("deps"), viewer, "offer.declined", offerId);
    return c.redirect(`${PORTAL_ROUTE}/leads/${encodeURIComponent(id)}?done=offer_declined#offers`, 303);
  });

  portal.post("/leads/:id/offers/:offerId/accept", async (c) => {
    const viewer = c.get("viewer");
    const { id, offerId } = c.req.param();
    try {
      await acceptOffer(c.get("deps"), scopeOfViewer(viewer), id, offerId);
    } catch (error) {
      return refusedOnLeadPage(c, id, error);
    }
    await recordPortalAction(c.get("deps"), viewer, "offer.accepted", offerId);
    return c.redirect(`${PORTAL_ROUTE}/leads/${encodeURIComponent(id)}?done=accepted`, 303);
  });
}
