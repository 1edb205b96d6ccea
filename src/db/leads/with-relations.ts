/**
 * A lead and everything its resource shows (documents, routing, current
 * offers, renewals, register answers, the hub link's generation) in one D1 round trip: one batch of
 * seven reads, their SQL built once per isolate and bound to each request's scope and id. Each read is scoped
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
  routing: LeadRoutingRow | null;
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

/** The batch's seven statements, built once per isolate (db/prepared-batch.ts); each is scoped in SQL to the caller's lead. */
const readWithRelations = preparedBatch((db) => {
  const ownLead = db.select({ id: leads.id }).from(leads).where(inScope(bound, leadId));
  return [
    db.select().from(leads).where(inScope(bound, leadId)).prepare(),
    db.select().from(documents).where(and(eq(documents.leadId, leadId), inArray(documents.leadId, ownLead))).orderBy(asc(documents.receivedAt), asc(writeOrder(documents))).prepare(),
    db.select().from(leadRouting).where(and(eq(leadRouting.leadId, leadId), inArray(leadRouting.leadId, ownLead))).prepare(),
    db
      .select()
      .from(offers)
      .where(and(eq(offers.leadId, leadId), eq(offers.superseded, false), inArray(offers.leadId, ownLead)))
      // rowid: offers made in the same millisecond keep the order they were made in.
      .orderBy(asc(offers.createdAt), sql`rowid`)
      .prepare(),
    renewalsQuery(db, bound, leadId).prepare(),
    db.select().from(registerAnswers).where(and(eq(registerAnswers.ownerId, leadId), inArray(registerAnswers.ownerId, ownLead))).prepare(),
    db.select({ generation: hubLinks.generation }).from(hubLinks).where(and(eq(hubLinks.leadId, leadId), inArray(hubLinks.leadId, ownLead))).prepare(),
  ] as const;
});

export async function findLeadWithRelations(db: Database, scope: Scope, id: string): Promise<LeadWithRelations | null> {
  const [leadRows, documentRows, routingRows, offerRows, renewalRows, answerRows, linkRows] = await readWithRelations(db, { ...scope, id });
  if (!leadRows[0]) return null;
  return { lead: toLead(leadRows[0]), documents: documentRows.map(toDocument), routing: routingRows[0] ?? null, offers: offerRows.map(toOffer), renewals: renewalRows.map(toRenewalSummary), registerAnswers: answerRows, hubLinkGeneration: linkRows[0]?.generation ?? 0 };
}
