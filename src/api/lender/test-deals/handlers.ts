import { scopeOf } from "../../../domain/identity/caller";
import type { Router } from "../../router";
import { createTestDeal, removeTestDeal } from "../../../services/deals/test-deals";
import { simulateTestDealEvent } from "../../../services/sandbox/test-deal-simulation";
import { viewContext } from "../../../services/views/view-context";
import { announceDeprecatedFields } from "../deals/handlers";
import { createTestDealRoute, deleteTestDealRoute, simulateTestDealRoute } from "./routes";

export function registerTestDealRoutes(router: Router) {
  router.openapi(createTestDealRoute, async (c) => {
    // The body is optional: without one the validator passes nothing through.
    const body = c.req.valid("json") ?? {};
    const deal = await createTestDeal(viewContext(c.env, { deps: c.get("deps") }), scopeOf(c.get("caller")), {
      country: body.country?.country,
      business: body.business ?? undefined,
      contact: body.contact ?? undefined,
      funding: body.funding ?? undefined,
      trading: body.trading ?? undefined,
    });
    c.header("Location", new URL(`/v1/deals/${deal.ref}`, c.req.url).toString());
    announceDeprecatedFields(c);
    return c.json(deal, 201);
  });

  router.openapi(deleteTestDealRoute, async (c) => {
    await removeTestDeal(c.get("deps"), scopeOf(c.get("caller")), c.req.valid("param").ref);
    return c.body(null, 204);
  });

  router.openapi(simulateTestDealRoute, async (c) => {
    const ctx = viewContext(c.env, { deps: c.get("deps") });
    const deal = await simulateTestDealEvent(ctx, scopeOf(c.get("caller")), c.req.valid("param").ref, c.req.valid("json").event);
    announceDeprecatedFields(c);
    return c.json(deal, 200);
  });
}
