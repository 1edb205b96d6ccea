/**
 * The sandbox business behind a lender's test deal (`leads.test_deal_ref`,
 * migration 0009). Reads are scoped in the query to the lender organisation
 * and environment and to an undeleted test deal, so a live deal or another
 * account's deal is simply not found. The business is given to a deal once,
 * by a conditional update of the deal (its `lead_id` still null) that writes a
 * fresh `last_change` token; the lead, its routing record and the lead id on
 * the deal's earlier offers and document requests are written only if it won.
 * These statements never run alone: they open the batch of the business's
 * first action (services/sandbox/test-deal-simulation.ts), so the business
 * exists only together with that action, its events and the request's
 * Idempotency-Key commit.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Scope } from "../../domain/identity/caller";
import type { Deal } from "../../domain/deals/types";
import type { Lead } from "../../domain/leads/types";
import type { Database } from "../client";
import { dealChanged, dealInScope, toDeal } from "./deals";
import { insertWhere } from "../guarded";
import { newLeadRow, toLead } from "../leads/leads";
import { deals, leadRouting, offers } from "../schema/deals";
import { documentRequests } from "../schema/documents";
import { leads } from "../schema/leads";

/** The caller's own, undeleted test deal; never a routed (live) deal. */
const testDealInScope = (scope: Scope, ref: string) => and(dealInScope(scope, ref), eq(deals.test, true));

export async function findTestDeal(db: Database, scope: Scope, ref: string): Promise<Deal | null> {
  const row = await db.select().from(deals).where(testDealInScope(scope, ref)).get();
  return row ? toDeal(row) : null;
}

/** The business standing behind the caller's test deal `ref`, or null while it has none. */
export async function findSandboxBusiness(db: Database, scope: Scope, ref: string): Promise<Lead | null> {
  const row = await db
    .select({ lead: leads })
    .from(leads)
    .innerJoin(deals, eq(deals.leadId, leads.id))
    .where(and(eq(leads.testDealRef, ref), eq(leads.organisationId, scope.organisationId), eq(leads.environment, scope.environment), testDealInScope(scope, ref)))
    .get();
  return row ? toLead(row.lead) : null;
}

/**
 * The statements giving test deal `ref` its business `lead`, to run first in the batch of the
 * business's first action (the `prelude` of runGuardedBatch). The first claims the deal (its
 * `lead_id` still null); the last aborts the whole batch (a NULL into a NOT NULL column) unless the
 * deal is now this lead's, so a deal deleted meanwhile, or given its business by a racing first
 * simulation, leaves nothing written: neither the business nor the action built on it.
 */
export function sandboxBusinessStatements(db: Database, scope: Scope, ref: string, lead: Lead, token: string, at: string) {
  const won = dealChanged(ref, token);
  const routing = { leadId: lead.id, partnerOrganisationId: lead.organisationId, environment: lead.environment, reasons: [], lastChange: token, createdAt: at };
  return [
    db
      .update(deals)
      .set({ leadId: lead.id, lastChange: token, updatedAt: at })
      .where(and(testDealInScope(scope, ref), isNull(deals.leadId))),
    insertWhere(
      db,
      leads,
      // A sandbox business: no partner reference and no renewal, only the test deal it stands behind.
      { ...newLeadRow(lead), partnerReference: null, renewalOf: null, testDealRef: ref },
      won,
    ),
    // The routing record an acceptance is decided on; the lender stands in for the partner (no partner exists).
    insertWhere(db, leadRouting, routing, won),
    db.update(offers).set({ leadId: lead.id }).where(and(eq(offers.dealRef, ref), isNull(offers.leadId), won)),
    db.update(documentRequests).set({ leadId: lead.id }).where(and(eq(documentRequests.dealRef, ref), isNull(documentRequests.leadId), won)),
    // Lost the deal: a routing row without a partner (NOT NULL) aborts the batch.
    insertWhere(
      db,
      leadRouting,
      { ...routing, partnerOrganisationId: null as unknown as string },
      sql`not exists (select 1 from ${deals} where ${deals.ref} = ${ref} and ${deals.leadId} = ${lead.id})`,
    ),
  ];
}
