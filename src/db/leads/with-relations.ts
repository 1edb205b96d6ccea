/**
 * A lead and everything its resource shows (documents, routing, current offers, routed options,
 * renewals, register answers, the hub link's generation, the attribution) in one D1 round trip: one
 * batch of six plain reads, their SQL built once per isolate and bound to each request's scope and id
 * (db/prepared-batch.ts). The lead comes joined to its routing row and hub link (each keyed by the
 * lead's id); each list is its own statement seeking its own index, mapped by drizzle. Every statement
 * is scoped in SQL to the caller's lead (a list reads only the rows of a lead the scope holds), so a
 * lead of another account or environment finds nothing anywhere.
 *
 * The lists were once folded into the lead's statement as JSON aggregates with an encoding of their
 * own; a paired comparison found that read no faster than these six (docs/capacity.md, "The lead read:
 * one statement or six"), so the plain reads stay.
 */
import { and, asc, eq, exists, sql } from "drizzle-orm";
import type { Offer } from "../../domain/deals/types";
import type { StoredDocument } from "../../domain/documents/types";
import type { Scope } from "../../domain/identity/caller";
import type { Lead, RenewalSummary } from "../../domain/leads/types";
import type { Database } from "../client";
import { toOffer } from "../offer-rows";
import { toDocument } from "../documents/documents";
import { inScope, toLead, toRenewalSummary } from "./leads";
import { deals, leadRouting, offers, type LeadRoutingRow } from "../schema/deals";
import type { RoutedOption } from "../../domain/deals/outcomes";
import { documents } from "../schema/documents";
import { hubLinks } from "../schema/hub-links";
import { leads } from "../schema/leads";
import { registerAnswers, type RegisterAnswerRow } from "../schema/registers";
import { companyClaims } from "../schema/claims";
import { writeOrder } from "../write-order";
import { preparedBatch } from "../prepared-batch";

export interface LeadWithRelations {
  lead: Lead;
  documents: StoredDocument[];
  /** What the resource shows of the routing row: outcome, funded amount, the matcher's reasons. */
  routing: RoutingShown | null;
  offers: Offer[];
  /** The lead's deals, in routing order, as much as the partner's anonymised outcomes read of them. */
  routedOptions: RoutedOption[];
  /** Leads opened as renewals of this one (only a funded lead has any). */
  renewals: RenewalSummary[];
  /** The stored register and VAT answers (services/registers/holdings.ts reads them). */
  registerAnswers: RegisterAnswerRow[];
  /** The client-hub link's generation (0: the lead's first link; a rotation counts up), read in the same batch. */
  hubLinkGeneration: number;
  /** When the lead's attribution began, while it holds its company (docs/leads.md, "Attribution"); else null. */
  attributionSince: string | null;
}

const bound = { organisationId: sql.placeholder("organisationId"), environment: sql.placeholder("environment") };
const leadId = sql.placeholder("id");

/**
 * What the lead's resource shows of its routing row (services/leads/presentation.ts). `reasons` (NOT NULL)
 * comes first: drizzle takes a left-joined object for absent when its first column is null.
 */
const routingShown = { reasons: leadRouting.reasons, outcome: leadRouting.outcome, outcomeAt: leadRouting.outcomeAt, fundedAmount: leadRouting.fundedAmount };
type RoutingShown = Pick<LeadRoutingRow, keyof typeof routingShown>;

/** What an outcome reads of a deal (never its lender's name), in routing order. */
const routedOptionColumns = {
  ref: deals.ref,
  lenderOrganisationId: deals.lenderOrganisationId,
  productFamily: deals.productFamily,
  lenderStatus: deals.lenderStatus,
  status: deals.status,
  declineReasons: deals.declineReasons,
  createdAt: deals.createdAt,
  updatedAt: deals.updatedAt,
};

export const readWithRelations = preparedBatch((db) => {
  // The caller's lead, if the scope holds it: every list reads only rows of this lead (an uncorrelated
  // EXISTS, read once, beside the list's own index seek).
  const ownLead = exists(db.select({ id: leads.id }).from(leads).where(inScope(bound, leadId)));
  return [
    // The lead with its one routing row and its one hub link joined, and its one active claim's `since`.
    // Only columns whose names the lead's do not carry: a D1 batch answers each row as an object keyed by
    // column name, so a second `environment` or `created_at` would overwrite the lead's (the plan test checks).
    db
      .select({
        lead: leads,
        routing: routingShown,
        generation: hubLinks.generation,
        attributionSince: sql<string | null>`(${db.select({ since: companyClaims.since }).from(companyClaims).where(and(eq(companyClaims.leadId, leads.id), eq(companyClaims.active, true)))})`.as("attribution_since"),
      })
      .from(leads)
      .leftJoin(leadRouting, eq(leadRouting.leadId, leads.id))
      .leftJoin(hubLinks, eq(hubLinks.leadId, leads.id))
      .where(inScope(bound, leadId))
      .prepare(),
    // Lists order by (time, rowid): rows written in the same millisecond keep the order they were written in.
    db.select().from(documents).where(and(eq(documents.leadId, leadId), ownLead)).orderBy(asc(documents.receivedAt), asc(writeOrder(documents))).prepare(),
    db
      .select()
      .from(offers)
      .where(and(eq(offers.leadId, leadId), eq(offers.superseded, false), ownLead))
      .orderBy(asc(offers.createdAt), asc(writeOrder(offers)))
      .prepare(),
    db.select(routedOptionColumns).from(deals).where(and(eq(deals.leadId, leadId), ownLead)).orderBy(asc(deals.createdAt), asc(writeOrder(deals))).prepare(),
    // Unary + keeps the scope columns off the index choice: the renewal_of index, not the account's range.
    db
      .select({ id: leads.id, reference: leads.reference, state: leads.state, createdAt: leads.createdAt })
      .from(leads)
      .where(and(eq(leads.renewalOf, leadId), sql`+${leads.organisationId} = ${bound.organisationId}`, sql`+${leads.environment} = ${bound.environment}`))
      .orderBy(asc(leads.createdAt), asc(writeOrder(leads)))
      .prepare(),
    // The primary key's order (owner, kind).
    db.select().from(registerAnswers).where(and(eq(registerAnswers.ownerId, leadId), ownLead)).orderBy(asc(registerAnswers.kind)).prepare(),
  ] as const;
});

const toRoutedOption = (r: Pick<typeof deals.$inferSelect, keyof typeof routedOptionColumns>): RoutedOption => ({
  ref: r.ref,
  lenderOrganisationId: r.lenderOrganisationId,
  productFamily: r.productFamily,
  lenderStatus: r.lenderStatus as RoutedOption["lenderStatus"],
  status: r.status as RoutedOption["status"],
  declineReasons: r.declineReasons ?? [],
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

/** The lead's routed options on their own (the status batch builds `lead.declined`'s outcomes from them). */
export async function routedOptionsOfLead(db: Database, leadId: string): Promise<RoutedOption[]> {
  const rows = await db.select(routedOptionColumns).from(deals).where(eq(deals.leadId, leadId)).orderBy(asc(deals.createdAt), asc(writeOrder(deals))).all();
  return rows.map(toRoutedOption);
}

export async function findLeadWithRelations(db: Database, scope: Scope, id: string): Promise<LeadWithRelations | null> {
  const [leadRows, documentRows, offerRows, optionRows, renewalRows, answerRows] = await readWithRelations(db, { ...scope, id });
  const found = leadRows[0];
  if (!found) return null;
  return {
    lead: toLead(found.lead),
    documents: documentRows.map(toDocument),
    routing: found.routing,
    offers: offerRows.map(toOffer),
    routedOptions: optionRows.map(toRoutedOption),
    renewals: renewalRows.map(toRenewalSummary),
    registerAnswers: answerRows,
    hubLinkGeneration: found.generation ?? 0,
    attributionSince: found.attributionSince ?? null,
  };
}
