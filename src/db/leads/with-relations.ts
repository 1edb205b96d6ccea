/**
 * A lead and everything its resource shows (documents, routing, current
 * offers, renewals, register answers, the hub link's generation) in one D1 round trip: one batch of
 * five reads (the lead joined to its routing row and hub link, then its documents, offers, renewals and
 * register answers), their SQL built once per isolate and bound to each request's scope and id. Each read is scoped
 * in SQL to the caller's lead, so a lead of another account or environment
 * finds nothing anywhere.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Offer } from "../../domain/deals/types";
import type { StoredDocument } from "../../domain/documents/types";
import type { Scope } from "../../domain/identity/caller";
import type { Lead, RenewalSummary } from "../../domain/leads/types";
import type { Database } from "../client";
import { toOffer } from "../offer-rows";
import { toDocument } from "../documents/documents";
import { inScope, renewalsQuery, toLead, toRenewalSummary } from "./leads";
import { leadRouting, offers, type LeadRoutingRow } from "../schema/deals";
import { documents } from "../schema/documents";
import { hubLinks } from "../schema/hub-links";
import { leads } from "../schema/leads";
import { registerAnswers, type RegisterAnswerRow } from "../schema/registers";
import { writeOrder } from "../write-order";
import { preparedBatch } from "../prepared-batch";

export interface LeadWithRelations {
  lead: Lead;
  documents: StoredDocument[];
  /** What the resource shows of the routing row: outcome, funded amount, the matcher's reasons. */
  routing: RoutingShown | null;
  offers: Offer[];
  /** Leads opened as renewals of this one (only a funded lead has any). */
  renewals: RenewalSummary[];
  /** The stored register and VAT answers (services/registers/holdings.ts reads them). */
  registerAnswers: RegisterAnswerRow[];
  /** The client-hub link's generation (0: the lead's first link; a rotation counts up), read in the same batch. */
  hubLinkGeneration: number;
}

const bound = { organisationId: sql.placeholder("organisationId"), environment: sql.placeholder("environment") };
const leadId = sql.placeholder("id");

/** The batch's five statements, built once per isolate (db/prepared-batch.ts); each is scoped in SQL to the caller's lead. */
/**
 * What the lead's resource shows of its routing row (services/leads/presentation.ts). `reasons` (NOT NULL)
 * comes first: drizzle takes a left-joined object for absent when its first column is null.
 */
const routingShown = { reasons: leadRouting.reasons, outcome: leadRouting.outcome, outcomeAt: leadRouting.outcomeAt, fundedAmount: leadRouting.fundedAmount };
type RoutingShown = Pick<LeadRoutingRow, keyof typeof routingShown>;

export const readWithRelations = preparedBatch((db) => {
  const ownLead = db.select({ id: leads.id }).from(leads).where(inScope(bound, leadId));
  return [
    // The lead with its one routing row and its one hub link (each keyed by the lead's id): one statement.
    // Only columns whose names the lead's do not carry: a D1 batch answers each row as an object keyed by
    // column name, so a second `environment` or `created_at` would overwrite the lead's (the plan test checks).
    db
      .select({ lead: leads, routing: routingShown, generation: hubLinks.generation })
      .from(leads)
      .leftJoin(leadRouting, eq(leadRouting.leadId, leads.id))
      .leftJoin(hubLinks, eq(hubLinks.leadId, leads.id))
      .where(inScope(bound, leadId))
      .prepare(),
    db.select().from(documents).where(and(eq(documents.leadId, leadId), inArray(documents.leadId, ownLead))).orderBy(asc(documents.receivedAt), asc(writeOrder(documents))).prepare(),
    db
      .select()
      .from(offers)
      .where(and(eq(offers.leadId, leadId), eq(offers.superseded, false), inArray(offers.leadId, ownLead)))
      // rowid: offers made in the same millisecond keep the order they were made in.
      .orderBy(asc(offers.createdAt), sql`rowid`)
      .prepare(),
    renewalsQuery(db, bound, leadId).prepare(),
    db.select().from(registerAnswers).where(and(eq(registerAnswers.ownerId, leadId), inArray(registerAnswers.ownerId, ownLead))).prepare(),
  ] as const;
});

export async function findLeadWithRelations(db: Database, scope: Scope, id: string): Promise<LeadWithRelations | null> {
  const [leadRows, documentRows, offerRows, renewalRows, answerRows] = await readWithRelations(db, { ...scope, id });
  const found = leadRows[0];
  if (!found) return null;
  return { lead: toLead(found.lead), documents: documentRows.map(toDocument), routing: found.routing, offers: offerRows.map(toOffer), renewals: renewalRows.map(toRenewalSummary), registerAnswers: answerRows, hubLinkGeneration: found.generation ?? 0 };
}
