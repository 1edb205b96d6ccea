import { database } from "../../db/client";
import { scopeOf } from "../../domain/identity/caller";
import { missingForSubmit } from "../../domain/leads/submission";
import type { Lead } from "../../domain/leads/types";
import { ApiError } from "../../lib/errors";
import type { Router } from "../../lib/router";
import { panelMatcher } from "../../services/lead-routing";
import { openLead, pageOfLeads, submitLead } from "../../services/leads";
import { createReferralRoute, listReferralsRoute } from "./routes";

const referralView = (lead: Lead) => ({
  id: lead.id,
  reference: lead.reference,
  state: lead.state,
  matched_options: lead.matchedOptions,
  created_at: lead.createdAt,
  updated_at: lead.updatedAt,
});

export function registerReferralRoutes(router: Router) {
  router.openapi(createReferralRoute, async (c) => {
    const caller = c.get("caller");
    const scope = scopeOf(caller);
    const db = database(c.env.DB);
    const { country, ...parts } = c.req.valid("json");
    const missing = missingForSubmit({ business: parts.business ?? null, trading: parts.trading ?? null, funding: parts.funding ?? null }, country);
    if (missing.length > 0) {
      throw new ApiError("missing_fields", `Mandatory fields of ${country.name} are missing: ${missing.join(", ")}.`, { extra: { missing } });
    }
    const lead = await openLead(db, scope, country, parts);
    // The referring lender declined the business, so it is matched against the rest of the panel only.
    const { lead: submitted } = await submitLead(db, scope, lead.id, panelMatcher(c.env.DB, caller.organisationId));
    return c.json(referralView(submitted), 201);
  });

  router.openapi(listReferralsRoute, async (c) => {
    const { cursor, limit } = c.req.valid("query");
    const page = await pageOfLeads(database(c.env.DB), scopeOf(c.get("caller")), {}, cursor, limit, c.env.SIGNING_SECRET);
    return c.json({ referrals: page.leads.map(referralView), next_cursor: page.nextCursor }, 200);
  });
}
