import { scopeOf } from "../../../domain/identity/caller";
import type { Router } from "../../router";
import { pageOfReferrals, referBusiness } from "../../../services/deals/referrals";
import { createReferralRoute, listReferralsRoute } from "./routes";
import { signingSecretOf } from "../../../lib/signing-secret";

export function registerReferralRoutes(router: Router) {
  router.openapi(createReferralRoute, async (c) => {
    const { country, ...parts } = c.req.valid("json");
    const referral = await referBusiness(c.get("db"), c.env.DB, scopeOf(c.get("caller")), country, parts, c.env.REGISTER_LOOKUPS);
    return c.json(referral, 201);
  });

  router.openapi(listReferralsRoute, async (c) => {
    const { cursor, limit } = c.req.valid("query");
    const page = await pageOfReferrals(c.get("db"), scopeOf(c.get("caller")), cursor, limit, signingSecretOf(c.env));
    return c.json({ referrals: page.referrals, next_cursor: page.nextCursor }, 200);
  });
}
