import { scopeOf } from "../../../domain/identity/caller";
import type { Router } from "../../router";
import { pageOfReferrals, referBusiness } from "../../../services/deals/referrals";
import { createReferralRoute, listReferralsRoute } from "./routes";

export function registerReferralRoutes(router: Router) {
  router.openapi(createReferralRoute, async (c) => {
    const { country, ...parts } = c.req.valid("json");
    const referral = await referBusiness(c.get("deps"), scopeOf(c.get("caller")), country, parts);
    return c.json(referral, 201);
  });

  router.openapi(listReferralsRoute, async (c) => {
    const { cursor, limit } = c.req.valid("query");
    const page = await pageOfReferrals(c.get("deps"), scopeOf(c.get("caller")), cursor, limit);
    return c.json({ referrals: page.referrals, next_cursor: page.nextCursor }, 200);
  });
}
