/**
 * Stored register and VAT answers (`register_answers`). The statements a lead
 * write adds to its own batch keep the rows true to the lead: every row for a
 * number or market the lead no longer holds is dropped, and a new lookup's row
 * is inserted only while the lead holds its number.
 */
import { and, asc, eq, isNotNull, lte, sql, type SQL } from "drizzle-orm";
import type { RegisterKind } from "../../domain/registers/lookups";
import type { Database } from "../client";
import { insertWhere } from "../guarded";
import { leads } from "../schema/leads";
import { registerAnswers, type RegisterAnswerRow } from "../schema/registers";

/** Where each kind's number sits in the lead's `business` JSON. */
const NUMBER_PATH: Record<RegisterKind, string> = { registry: "$.company_number", vat: "$.vat.number" };

const leadNumber = (leadId: string, kind: RegisterKind): SQL =>
  sql`(select json_extract(${leads.business}, ${NUMBER_PATH[kind]}) from ${leads} where ${leads.id} = ${leadId})`;
const leadCountry = (leadId: string): SQL => sql`(select ${leads.country} from ${leads} where ${leads.id} = ${leadId})`;

/**
 * Drops the answers of a lead that no longer answer for what it holds (the
 * number changed or was cleared, or the market changed). Runs after the
 * lead's own write in the same batch, so it reads the lead as written.
 */
export const staleAnswersDelete = (db: Database, leadId: string) =>
  db
    .delete(registerAnswers)
    .where(
      and(
        eq(registerAnswers.ownerId, leadId),
        sql`(${registerAnswers.country} is not ${leadCountry(leadId)} or (${registerAnswers.kind} = 'registry' and ${registerAnswers.number} is not ${leadNumber(leadId, "registry")}) or (${registerAnswers.kind} = 'vat' and ${registerAnswers.number} is not ${leadNumber(leadId, "vat")}))`,
      ),
    );

export interface NewLookup {
  ownerId: string;
  kind: RegisterKind;
  environment: "sandbox" | "live";
  country: string;
  number: string;
  lookupId: string;
  at: string;
}

const lookupRow = (l: NewLookup, answer: unknown = null, checkedAt: string | null = null): typeof registerAnswers.$inferInsert => ({
  ownerId: l.ownerId,
  kind: l.kind,
  environment: l.environment,
  country: l.country,
  number: l.number,
  lookupId: l.lookupId,
  answer,
  checkedAt,
  attempts: 0,
  dueAt: answer === null ? l.at : null,
  requestedAt: l.at,
  updatedAt: l.at,
});

/** A pending lookup for a lead, inserted only if the lead (as written by the same batch) holds that number in that market. */
export const leadLookupInsert = (db: Database, lookup: NewLookup) =>
  insertWhere(
    db,
    registerAnswers,
    lookupRow(lookup),
    sql`exists (select 1 from ${leads} where ${leads.id} = ${lookup.ownerId} and ${leads.country} = ${lookup.country} and json_extract(${leads.business}, ${NUMBER_PATH[lookup.kind]}) = ${lookup.number})`,
  ).onConflictDoNothing();

/** An answer stored at once (a test deal's fixture), under the guard of the write that creates its owner. */
export const settledAnswerInsert = (db: Database, lookup: NewLookup, answer: unknown, checkedAt: string, guard: SQL) =>
  insertWhere(db, registerAnswers, { ...lookupRow(lookup, answer, checkedAt), attempts: 1 }, guard);

export async function answersOf(db: Database, ownerId: string): Promise<RegisterAnswerRow[]> {
  return db.select().from(registerAnswers).where(eq(registerAnswers.ownerId, ownerId)).all();
}

export async function findLookup(db: Database, ownerId: string, kind: RegisterKind): Promise<RegisterAnswerRow | null> {
  return (await db.select().from(registerAnswers).where(and(eq(registerAnswers.ownerId, ownerId), eq(registerAnswers.kind, kind))).get()) ?? null;
}

export interface LookupResult {
  answer: unknown;
  /** When the stored answer was given; null while the register has not answered. */
  checkedAt: string | null;
  attempts: number;
  /** When the next attempt is due; null when the answer is final. */
  dueAt: string | null;
  at: string;
}

/**
 * Stores an attempt's answer, only while the row is still the lookup the
 * message names: a number changed meanwhile dropped it (or replaced it with
 * another lookup), and that answer must never be shown. True when stored.
 */
export async function storeLookupResult(db: Database, ownerId: string, kind: RegisterKind, lookupId: string, result: LookupResult) {
  const outcome = await db
    .update(registerAnswers)
    .set({ answer: result.answer, checkedAt: result.checkedAt, attempts: result.attempts, dueAt: result.dueAt, updatedAt: result.at })
    .where(and(eq(registerAnswers.ownerId, ownerId), eq(registerAnswers.kind, kind), eq(registerAnswers.lookupId, lookupId)))
    .run();
  return outcome.meta.changes === 1;
}

/** Lookups whose attempt was due before `before` and has not happened: their queue message was lost. */
export async function overdueLookups(db: Database, before: string, limit: number) {
  return db
    .select({ ownerId: registerAnswers.ownerId, kind: registerAnswers.kind, lookupId: registerAnswers.lookupId })
    .from(registerAnswers)
    .where(and(isNotNull(registerAnswers.dueAt), lte(registerAnswers.dueAt, before)))
    .orderBy(asc(registerAnswers.dueAt))
    .limit(limit)
    .all();
}

/** Moves a re-sent lookup's due time to now, so the next sweep waits a full grace period before sending it again. */
export async function markLookupResent(db: Database, ownerId: string, kind: RegisterKind, lookupId: string, at: string) {
  await db
    .update(registerAnswers)
    .set({ dueAt: at })
    .where(and(eq(registerAnswers.ownerId, ownerId), eq(registerAnswers.kind, kind), eq(registerAnswers.lookupId, lookupId), isNotNull(registerAnswers.dueAt)))
    .run();
}

/** Moves a lookup's next attempt later without an attempt (its register asked us to wait). True when the row is still that lookup. */
export async function postponeLookup(db: Database, ownerId: string, kind: RegisterKind, lookupId: string, dueAt: string, at: string) {
  const outcome = await db
    .update(registerAnswers)
    .set({ dueAt, updatedAt: at })
    .where(and(eq(registerAnswers.ownerId, ownerId), eq(registerAnswers.kind, kind), eq(registerAnswers.lookupId, lookupId), isNotNull(registerAnswers.dueAt)))
    .run();
  return outcome.meta.changes === 1;
}
