/** Reads of the event log (the outbox written by `eventInsert` in ./events.ts). */
import { and, asc, desc, eq, getTableColumns, isNull, sql } from "drizzle-orm";
import { writeOrder, writtenBefore } from "../write-order";
import type { Scope } from "../../domain/identity/caller";
import type { KeysetPosition } from "../../lib/cursor";
import type { Database } from "../client";
import { events } from "../schema/events";

export async function undispatchedEvents(db: Database, limit: number) {
  return db.select().from(events).where(isNull(events.dispatchedAt)).orderBy(asc(events.createdAt), asc(writeOrder(events))).limit(limit).all();
}

/** The conditional update that decides which dispatcher turns an event into deliveries. */
export const claimEventStatement = (db: Database, eventId: string, at: string) =>
  db
    .update(events)
    .set({ dispatchedAt: at })
    .where(and(eq(events.id, eventId), isNull(events.dispatchedAt)))
    .returning({ id: events.id });

export interface EventFilter {
  event?: string;
  /** A deal reference (case-insensitive) or a lead / referral id. */
  subject?: string;
}

export async function listEvents(db: Database, scope: Scope, api: "partner" | "lender", filter: EventFilter, after: KeysetPosition | null, limit: number) {
  return listEventsQuery(db, scope, api, filter, after, limit).all();
}

/** Newest first on the scope's index for the filter given (events_scope_created, _event_created or _subject_created). */
export function listEventsQuery(db: Database, scope: Scope, api: "partner" | "lender", filter: EventFilter, after: KeysetPosition | null, limit: number) {
  return db
    .select({ ...getTableColumns(events), seq: writeOrder(events) })
    .from(events)
    .where(
      and(
        eq(events.organisationId, scope.organisationId),
        eq(events.environment, scope.environment),
        eq(events.api, api),
        filter.event ? eq(events.event, filter.event) : undefined,
        filter.subject ? sql`lower(${events.subjectId}) = lower(${filter.subject})` : undefined,
        after ? writtenBefore(events, events.createdAt, after) : undefined,
      ),
    )
    .orderBy(desc(events.createdAt), desc(writeOrder(events)))
    .limit(limit);
}
