// The one-statement lead read (the lists as JSON aggregates, db/json-rows.ts), kept beside the plain reads
// only for the paired comparison in test/leads/zz-read-pair.test.ts (docs/capacity.md).
/**
 * A lead and everything its resource shows (documents, routing, current
 * offers, renewals, register answers, the hub link's generation) in one D1 round trip and ONE statement:
 * the lead joined to its routing row and hub link, with its documents, current offers, renewals and
 * register answers as JSON aggregates of correlated subqueries (db/json-rows.ts), each seeking its own
 * index. The SQL is built once per isolate and bound to each request's scope and id (db/prepared-batch.ts).
 * The statement is scoped in SQL to the caller's lead and every list hangs off that row, so a lead of
 * another account or environment finds nothing anywhere.
 */
import { and, eq, sql, type SQL } from "drizzle-orm";
import { alias, type SQLiteTable } from "drizzle-orm/sqlite-core";
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
import { allColumns, jsonRows } from "../json-rows";

interface LeadWithRelations {
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

// The four lists, each a correlated subquery on the lead's row (already scoped to the caller) that seeks
// its own index and gives its rows as one JSON text (db/json-rows.ts), in the order the lists always had.
const documentRows = jsonRows(allColumns(documents), [documents.receivedAt, writeOrder(documents)]);
// rowid: offers made in the same millisecond keep the order they were made in.
const offerRows = jsonRows(allColumns(offers), [offers.createdAt, writeOrder(offers)]);
// What an outcome reads of a deal (never its lender), in routing order; the same rowid tie-break.
const routedOptionRows = jsonRows(
  { ref: deals.ref, lenderOrganisationId: deals.lenderOrganisationId, productFamily: deals.productFamily, lenderStatus: deals.lenderStatus, status: deals.status, declineReasons: deals.declineReasons, createdAt: deals.createdAt, updatedAt: deals.updatedAt },
  [deals.createdAt, writeOrder(deals)],
);
const renewal = alias(leads, "renewal");
const renewalRows = jsonRows({ id: renewal.id, reference: renewal.reference, state: renewal.state, createdAt: renewal.createdAt }, [renewal.createdAt, writeOrder(renewal)]);
// The primary key's order (owner, kind), which a read of one owner's answers always had.
const answerRows = jsonRows(allColumns(registerAnswers), [registerAnswers.kind]);

const readWithRelations = preparedBatch((db) => {
  const list = <T>(rows: SQL<T>, from: SQLiteTable, where: SQL | undefined) => sql<T>`(${db.select({ rows }).from(from).where(where)})`;
  return [
    // One statement: the lead with its one routing row and its one hub link (each keyed by the lead's id)
    // joined, and its lists as JSON. Only columns whose names the lead's do not carry: a D1 batch answers
    // each row as an object keyed by column name, so a second `environment` or `created_at` would
    // overwrite the lead's (the plan test checks).
    db
      .select({
        lead: leads,
        routing: routingShown,
        generation: hubLinks.generation,
        documents: list(documentRows.rows, documents, eq(documents.leadId, leads.id)).as("documents_json"),
        offers: list(offerRows.rows, offers, and(eq(offers.leadId, leads.id), eq(offers.superseded, false))).as("offers_json"),
        routedOptions: list(routedOptionRows.rows, deals, eq(deals.leadId, leads.id)).as("routed_options_json"),
        // Unary + keeps the scope columns off the index choice: the renewal_of index, not the account's range.
        renewals: list(renewalRows.rows, renewal, and(eq(renewal.renewalOf, leads.id), sql`+${renewal.organisationId} = ${leads.organisationId}`, sql`+${renewal.environment} = ${leads.environment}`)).as("renewals_json"),
        registerAnswers: list(answerRows.rows, registerAnswers, eq(registerAnswers.ownerId, leads.id)).as("register_answers_json"),
        attributionSince: sql<string | null>`(${db.select({ since: companyClaims.since }).from(companyClaims).where(and(eq(companyClaims.leadId, leads.id), eq(companyClaims.active, true)))})`.as("attribution_since"),
      })
      .from(leads)
      .leftJoin(leadRouting, eq(leadRouting.leadId, leads.id))
      .leftJoin(hubLinks, eq(hubLinks.leadId, leads.id))
      .where(inScope(bound, leadId))
      .prepare(),
  ] as const;
});

const toRoutedOption = (r: ReturnType<typeof routedOptionRows.read>[number]): RoutedOption => ({
  ref: r.ref,
  lenderOrganisationId: r.lenderOrganisationId,
  productFamily: r.productFamily,
  lenderStatus: r.lenderStatus as RoutedOption["lenderStatus"],
  status: r.status as RoutedOption["status"],
  declineReasons: r.declineReasons ?? [],
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export async function findLeadWithRelationsAsJson(db: Database, scope: Scope, id: string): Promise<LeadWithRelations | null> {
  const [[found]] = await readWithRelations(db, { ...scope, id });
  if (!found) return null;
  return {
    lead: toLead(found.lead),
    documents: documentRows.read(found.documents).map(toDocument),
    routing: found.routing,
    offers: offerRows.read(found.offers).map(toOffer),
    routedOptions: routedOptionRows.read(found.routedOptions).map(toRoutedOption),
    renewals: renewalRows.read(found.renewals).map(toRenewalSummary),
    registerAnswers: answerRows.read(found.registerAnswers),
    hubLinkGeneration: found.generation ?? 0,
    attributionSince: found.attributionSince ?? null,
  };
}

