import { and, desc, eq, isNull, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Scope } from "../../domain/identity/caller";
import type { Lead, LeadOption, RenewalSummary, TimelineEntry } from "../../domain/leads/types";
import { subjectOf, type LeadSubject } from "../../domain/leads/subject";
import type { LeadState } from "../../domain/reference/values";
import type { Database } from "../client";
import type { NewEvent } from "../webhooks/events";
import { eventInsertWhere } from "../guarded";
import { submissionWon } from "./routing";
import { leads, type LeadRow } from "../schema/leads";
import type { KeysetPosition } from "../../lib/cursor";
import { writeOrder, writtenBefore } from "../write-order";
import { preparedBatch } from "../prepared-batch";
import { documents } from "../schema/documents";
import { documentColumn, parsedStatementExists, qualified } from "../documents/parsed-statements";

export const toLead = (row: LeadRow): Lead => ({
  id: row.id,
  reference: row.reference,
  organisationId: row.organisationId,
  environment: row.environment,
  country: row.country,
  partnerReference: row.partnerReference,
  state: row.state as LeadState,
  channel: row.channel ?? null,
  business: row.business ?? null,
  contact: row.contact ?? null,
  funding: row.funding ?? null,
  trading: row.trading ?? null,
  consent: row.consent ?? null,
  significantPersons: row.significantPersons,
  timeline: row.timeline,
  matchedOptions: row.matchedOptions,
  options: row.options ?? null,
  version: row.version,
  submittedAt: row.submittedAt,
  renewalOf: row.renewalOf ?? null,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** A lead of the caller's account and environment; the sandbox business behind a test deal is no lead of anyone's. */
/**
 * A scope and id as values, or as drizzle placeholders for a statement built once and bound per request
 * (db/prepared-batch.ts): the SQL is the same either way.
 */
type BoundScope = { [K in keyof Scope]: Scope[K] | Placeholder };

export const inScope = (scope: BoundScope, id: string | Placeholder) =>
  and(eq(leads.organisationId, scope.organisationId), eq(leads.environment, scope.environment), eq(leads.id, id), isNull(leads.testDealRef));

/** `also`: statements that belong to the same write (the lead's register lookups), run after the insert in one batch. */
/** The row a new lead is stored as; the submission token is never set on a new lead. */
export function newLeadRow(lead: Lead): typeof leads.$inferInsert {
  return {
    id: lead.id,
    organisationId: lead.organisationId,
    environment: lead.environment,
    reference: lead.reference,
    partnerReference: lead.partnerReference,
    state: lead.state,
    country: lead.country,
    channel: lead.channel,
    business: lead.business,
    contact: lead.contact,
    funding: lead.funding,
    trading: lead.trading,
    consent: lead.consent,
    significantPersons: lead.significantPersons,
    timeline: lead.timeline,
    matchedOptions: lead.matchedOptions,
    options: lead.options,
    version: lead.version,
    submissionToken: null,
    submittedAt: lead.submittedAt,
    renewalOf: lead.renewalOf,
    createdAt: lead.createdAt,
    updatedAt: lead.updatedAt,
  };
}

/** The insert of a new lead: `insertLead` runs it in a batch of its own, a referral in its submission's batch. */
export const leadInsert = (db: Database, lead: Lead) => db.insert(leads).values(newLeadRow(lead));

export async function insertLead(db: Database, lead: Lead, also: BatchItem<"sqlite">[] = []) {
  await db.batch([leadInsert(db, lead), ...also]);
}

/** True when an insert failed only because the reference is taken in this environment. */
export const isReferenceCollision = (error: unknown) => /UNIQUE constraint failed: leads\.environment, leads\.reference/.test(String((error as Error)?.message ?? error) + String((error as { cause?: unknown })?.cause ?? ""));

export async function findLead(db: Database, scope: Scope, id: string): Promise<Lead | null> {
  const row = await db.select().from(leads).where(inScope(scope, id)).get();
  return row ? toLead(row) : null;
}

export const toRenewalSummary = (r: { id: string; reference: string; state: string; createdAt: string }): RenewalSummary => ({ ...r, state: r.state as LeadState });

export type DraftChanges = LeadSubject & Pick<Lead, "partnerReference">;

/**
 * Writes a draft's new parts only if it is still the draft the caller read
 * (same version): a submit or another PATCH in between makes it change nothing.
 */
export async function updateDraft(db: Database, scope: Scope, id: string, expectedVersion: number, changes: DraftChanges, at: string, also: BatchItem<"sqlite">[] = []) {
  const update = db
    .update(leads)
    .set({
      ...subjectOf(changes),
      partnerReference: changes.partnerReference,
      version: expectedVersion + 1,
      updatedAt: at,
    })
    .where(and(inScope(scope, id), eq(leads.state, "draft"), eq(leads.version, expectedVersion)));
  const [result] = await db.batch([update, ...also]);
  return (result as D1Result).meta.changes === 1;
}

/**
 * True once the draft write that moved `id` to `version` at `at` committed: the guard of an event
 * that belongs to that write (a racing write that lost changed nothing, and its event is not written).
 */
export const draftWritten = (id: string, version: number, at: string) =>
  sql`exists (select 1 from ${leads} where ${leads.id} = ${id} and ${leads.version} = ${version} and ${leads.updatedAt} = ${at})`;

export interface Submission {
  state: LeadState;
  matchedOptions: number;
  options: LeadOption[];
  timeline: TimelineEntry[];
  /** Random per attempt: the events below are written only for the attempt whose token was stored. */
  token: string;
  at: string;
}

/**
 * The state change of a submit and its events, for one batch, with the rows
 * routing writes (`routed`, each guarded on the same token). The first is the
 * guard: the update only applies to the draft at the version read.
 */
export function submissionStatements(db: Database, scope: Scope, lead: Lead, submission: Submission, emitted: NewEvent[], routed: BatchItem<"sqlite">[] = []): [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] {
  const update = db
    .update(leads)
    .set({
      state: submission.state,
      matchedOptions: submission.matchedOptions,
      options: submission.options,
      timeline: submission.timeline,
      submissionToken: submission.token,
      submittedAt: submission.at,
      version: lead.version + 1,
      updatedAt: submission.at,
    })
    .where(and(inScope(scope, lead.id), eq(leads.state, "draft"), eq(leads.version, lead.version)));
  return [update, ...emitted.map((e) => eventInsertWhere(db, e, submissionWon(lead.id, submission.token), submission.at)), ...routed];
}

export interface LeadFilters {
  state?: LeadState;
  /** Market alpha-2. */
  country?: string;
  /** The portal's search: the lead's reference (`RF-…`, exact, any case) or a part of the business name (any case). */
  search?: string;
}

/** `%` and `_` typed by a person are letters, not wildcards. */
const likeText = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export type Position = KeysetPosition;

/**
 * Newest first, keyset on (created_at, rowid): each page is a range of the scope's index (which ends
 * in the rowid), read from the cursor without a sort, so page 1,000 costs what page 1 does and rows
 * written in the same millisecond keep the order they were written in (db/write-order.ts).
 */
export function listLeadsQuery(db: Database, scope: Scope, filters: LeadFilters, after: Position | null, limit: number) {
  // Built once per isolate for its shape, bound to this request's values.
  const { prepared, values } = listLeadsStatement(scope, filters, after, limit);
  return {
    /** The SQL and the values bound to it (the plan tests read it). */
    toSQL: () => prepared.statements(values)[0]!,
    all: async () => (await prepared(db, values))[0],
  };
}

type Bound<T> = T | Placeholder;
interface ListParts {
  state?: Bound<string>;
  country?: Bound<string>;
  search?: { reference: Bound<string>; like: Bound<string> };
  after?: { createdAt: Bound<string>; seq: Bound<number> };
}

/** The list's select for the parts present, each a placeholder the request's value is bound to. */
function listSelect(db: Database, scope: BoundScope, parts: ListParts, limit: Bound<number>) {
  const conditions: (SQL | undefined)[] = [eq(leads.organisationId, scope.organisationId), eq(leads.environment, scope.environment), isNull(leads.testDealRef)];
  if (parts.state !== undefined) conditions.push(eq(leads.state, parts.state));
  if (parts.country !== undefined) conditions.push(eq(leads.country, parts.country));
  if (parts.search) {
    conditions.push(sql`(${leads.reference} = ${parts.search.reference} or lower(json_extract(${leads.business}, '$.name')) like ${parts.search.like} escape '\\')`);
  }
  if (parts.after) conditions.push(writtenBefore(leads, leads.createdAt, parts.after as KeysetPosition));
  return db
    .select({ lead: leads, seq: writeOrder(leads), statementsAvailable: hasParsedStatement })
    .from(leads)
    .where(and(...conditions))
    .orderBy(desc(leads.createdAt), desc(writeOrder(leads)))
    .limit(limit);
}

/**
 * The list's statement for each combination of filters and cursor (16 at most), built once per isolate
 * and bound per request (db/prepared-batch.ts): the list is the most common request of every integration.
 */
const listShapes = new Map<string, ReturnType<typeof preparedList>>();
const preparedList = (state: boolean, country: boolean, search: boolean, after: boolean) =>
  preparedBatch((db) => [
    listSelect(
      db,
      { organisationId: sql.placeholder("organisationId"), environment: sql.placeholder("environment") },
      {
        state: state ? sql.placeholder("state") : undefined,
        country: country ? sql.placeholder("country") : undefined,
        search: search ? { reference: sql.placeholder("searchReference"), like: sql.placeholder("searchLike") } : undefined,
        after: after ? { createdAt: sql.placeholder("afterCreatedAt"), seq: sql.placeholder("afterSeq") } : undefined,
      },
      sql.placeholder("limit"),
    ).prepare(),
  ] as const);

/** The prepared list for these filters and cursor, and the values it binds. */
function listLeadsStatement(scope: Scope, filters: LeadFilters, after: Position | null, limit: number) {
  const flags = [Boolean(filters.state), Boolean(filters.country), Boolean(filters.search), Boolean(after)] as const;
  const key = flags.map(Number).join("");
  let prepared = listShapes.get(key);
  if (!prepared) listShapes.set(key, (prepared = preparedList(...flags)));
  const values = {
    organisationId: scope.organisationId,
    environment: scope.environment,
    state: filters.state,
    country: filters.country,
    searchReference: filters.search?.toUpperCase(),
    searchLike: filters.search ? likeText(filters.search) : undefined,
    afterCreatedAt: after?.createdAt,
    afterSeq: after?.seq,
    limit,
  };
  return { prepared, values };
}

/** A lead in the list, with whether it has a parsed statement (the list's `statements_available`, the full Lead's `statements.has_statements`). */
export type ListedLead = Lead & { statementsAvailable: boolean };

export async function listLeads(db: Database, scope: Scope, filters: LeadFilters, after: Position | null, limit: number) {
  // One extra row says whether there is a next page without a count.
  const rows = await listLeadsQuery(db, scope, filters, after, limit + 1).all();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    leads: page.map((r): ListedLead => ({ ...toLead(r.lead), statementsAvailable: Boolean(r.statementsAvailable) })),
    more: rows.length > limit,
    last: last ? { createdAt: last.lead.createdAt, seq: last.seq } : null,
  };
}

/** The rule of the full Lead's `statements` (every accepted, parsed upload of the lead), read per row inside the list query. */
const hasParsedStatement = parsedStatementExists(sql`${documentColumn(documents.leadId)} = ${qualified("leads", leads.id)}`);
