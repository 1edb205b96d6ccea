/**
 * The client-hub link state of a lead (generation and issue time). The hub
 * reads it by lead id (the link is its own credential); the partner's
 * rotation is scoped to the caller's account and environment in the SQL.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Scope } from "../../domain/identity/caller";
import type { HubLinkState } from "../../domain/hub/link";
import type { Lead } from "../../domain/leads/types";
import type { Database } from "../client";
import { toLead } from "../leads/leads";
import { hubLinks } from "../schema/hub-links";
import { leads } from "../schema/leads";

const stateOf = (row: { createdAt: string; generation: number | null; issuedAt: string | null }): HubLinkState => ({
  generation: row.generation ?? 0,
  issuedAt: row.issuedAt ?? row.createdAt,
});

/** Any lead by id with its link state: the hub checks the token against it before trusting the lead. */
export async function findLeadWithHubLink(db: Database, id: string): Promise<{ lead: Lead; link: HubLinkState } | null> {
  const row = await db
    .select({ lead: leads, generation: hubLinks.generation, issuedAt: hubLinks.issuedAt })
    .from(leads)
    .leftJoin(hubLinks, eq(hubLinks.leadId, leads.id))
    .where(eq(leads.id, id))
    .get();
  return row ? { lead: toLead(row.lead), link: stateOf({ createdAt: row.lead.createdAt, generation: row.generation, issuedAt: row.issuedAt }) } : null;
}

/**
 * Rotates the link of a lead of the caller's account and environment: the
 * next generation, issued now. One statement (the scope is checked in its
 * SELECT), so nothing is written for another account's lead; answers the new
 * state, or null when the lead is not the caller's.
 */
export async function rotateHubLink(db: Database, scope: Scope, leadId: string, at: string): Promise<HubLinkState | null> {
  const next = sql<number>`coalesce((select h.generation from hub_links h where h.lead_id = ${leadId}), 0) + 1`;
  const rotation = db
    .insert(hubLinks)
    .select(
      db
        .select({ leadId: leads.id, generation: next.as("generation"), issuedAt: sql<string>`${at}`.as("issued_at") })
        .from(leads)
        .where(and(eq(leads.id, leadId), eq(leads.organisationId, scope.organisationId), eq(leads.environment, scope.environment), isNull(leads.testDealRef))),
    )
    .onConflictDoUpdate({ target: hubLinks.leadId, set: { generation: sql`${hubLinks.generation} + 1`, issuedAt: sql`excluded.issued_at` } })
    .returning({ generation: hubLinks.generation, issuedAt: hubLinks.issuedAt });
  // A batch of one, so a keyed request (POST …/hub-link) spends its Idempotency-Key with the rotation.
  const [[row]] = await db.batch([rotation]);
  return row ? { generation: row.generation, issuedAt: row.issuedAt } : null;
}
