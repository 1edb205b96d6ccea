import { scopeOf } from "../../../domain/identity/caller";
import type { Router } from "../../router";
import { acceptOffer, declineOffer, leadOffers, simulateLeadEvent } from "../../../services/leads/offers";
import { presentLead } from "../../../services/leads/presentation";
import { panelMatcher } from "../../../services/leads/routing";
import { viewContext } from "../../../services/views/view-context";
import { acceptOfferRoute, declineOfferRoute, listLeadOffersRoute, simulateRoute } from "./routes";

export function registerOfferRoutes(router: Router) {
  router.openapi(listLeadOffersRoute, async (c) => c.json(await leadOffers(c.get("deps"), scopeOf(c.get("caller")), c.req.valid("param").id), 200));

  router.openapi(acceptOfferRoute, async (c) => {
    const { id, offerId } = c.req.valid("param");
    return c.json(await acceptOffer(c.get("deps"), scopeOf(c.get("caller")), id, offerId), 200);
  });

  router.openapi(declineOfferRoute, async (c) => {
    const { id, offerId } = c.req.valid("param");
    return c.json(await declineOffer(c.get("deps"), scopeOf(c.get("caller")), id, offerId, c.req.valid("json").reason_code), 200);
  });

  router.openapi(simulateRoute, async (c) => {
    const ctx = viewContext(c.env, { deps: c.get("deps") });
    const lead = await simulateLeadEvent(c.get("deps"), scopeOf(c.get("caller")), c.req.valid("param").id, c.req.valid("json").event, panelMatcher(c.get("deps")));
    return c.json(await presentLead(ctx, lead), 200);
  });
}
