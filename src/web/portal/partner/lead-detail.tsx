/**
 * The lead page's routes: the page itself, the accept review and the offer
 * decisions; the other actions are in lead-actions.tsx (a rejected document's removal in
 * document-remove.tsx), the page's parts in
 * lead-page.tsx and its sections. Each post is the portal's one form shape
 * (form-action.ts); a lead the viewer cannot see is the portal's 404 page.
 */
import type { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { Refusal } from "../../../lib/refusal";
import { acceptOffer, declineOffer } from "../../../services/leads/offers";
import { textOf } from "../../kit/form";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { portalForm } from "../form-action";
import { registerLeadActions } from "./lead-actions";
import { registerDocumentRemoval } from "./document-remove";
import { registerPersonsPages } from "./persons";
import { registerHubLinkPages } from "./hub-link";
import { AcceptReviewPage } from "./lead-accept";
import { leadNotHere, registerLeadElsewhere } from "./lead-elsewhere";
import { LEAD_NOTICES, leadOfViewer, leadPage } from "./render-lead";

export { stateLabel } from "./lead-view";

/** The lead page again with a refusal at its top; a lead the viewer cannot see is the 404 page. */
async function leadPageWithError(c: PortalContext, id: string, error: { message: string; field: string | null }, status: ContentfulStatusCode) {
  const lead = await leadOfViewer(c, id);
  if (!lead) throw new Refusal("not_found", "No such lead.");
  return c.html(await leadPage(c, lead, { error }), status);
}

/** An offer action (the portal's one form shape): audited about the offer in its batch; a refusal is the lead page again with it. */
const offerAction = (action: string, offerIdOf: (c: PortalContext, form: FormData) => string, act: (c: PortalContext, id: string, offerId: string, form: FormData) => Promise<string>) =>
  portalForm({
    audit: (c, form) => ({ action, target: offerIdOf(c, form) }),
    showAgain: (c, refusal) => leadPageWithError(c, c.req.param("id") ?? "", { message: refusal.message, field: null }, refusal.status),
    page: (c) => `${PORTAL_ROUTE}/leads/${encodeURIComponent(c.req.param("id") ?? "")}`,
    act: (c, form) => act(c, c.req.param("id") ?? "", offerIdOf(c, form), form),
  });

export function registerLeadDetailPages(portal: Hono<PortalEnv>) {
  registerPersonsPages(portal);
  registerHubLinkPages(portal);
  registerLeadActions(portal, leadPageWithError);
  registerDocumentRemoval(portal, leadPageWithError);
  registerLeadElsewhere(portal);
  portal.get("/leads/:id", async (c) => {
    const lead = await leadOfViewer(c, c.req.param("id"));
    if (!lead) return leadNotHere(c, c.req.param("id"));
    return c.html(await leadPage(c, lead, { notice: LEAD_NOTICES[c.req.query("done") ?? ""] ?? null }));
  });

  portal.get("/leads/:id/offers/:offerId/accept", async (c) => {
    const lead = await leadOfViewer(c, c.req.param("id"));
    const offer = lead?.offers.find((o) => o.id === c.req.param("offerId"));
    if (!lead || !offer) throw new Refusal("not_found", "No such lead or offer.");
    if (offer.state !== "presented") return c.redirect(`${PORTAL_ROUTE}/leads/${encodeURIComponent(lead.id)}#offers`, 303);
    return c.html(<AcceptReviewPage c={c} lead={lead} offer={offer} />);
  });

  portal.post(
    "/leads/:id/offers/decline",
    offerAction(
      "offer.declined",
      (_c, form) => textOf(form, "offer_id"),
      async (c, id, offerId, form) => {
        await declineOffer(c.get("deps"), scopeOfViewer(c.get("viewer")), id, offerId, textOf(form, "reason_code"));
        return `${PORTAL_ROUTE}/leads/${encodeURIComponent(id)}?done=offer_declined#offers`;
      },
    ),
  );

  portal.post(
    "/leads/:id/offers/:offerId/accept",
    offerAction(
      "offer.accepted",
      (c) => c.req.param("offerId") ?? "",
      async (c, id, offerId) => {
        await acceptOffer(c.get("deps"), scopeOfViewer(c.get("viewer")), id, offerId);
        return `${PORTAL_ROUTE}/leads/${encodeURIComponent(id)}?done=accepted`;
      },
    ),
  );
}
