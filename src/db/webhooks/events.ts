import type { Database } from "../client";
import { events } from "../schema/events";
import { newId, nowIso } from "../../lib/ids";

export type EventRow = typeof events.$inferSelect;

export interface NewEvent {
  organisationId: string;
  environment: "sandbox" | "live";
  api: "partner" | "lender";
  event: string;
  subjectType: "lead" | "deal" | "referral";
  subjectId: string;
  test?: boolean;
  detail?: Record<string, unknown>;
}

/**
 * An insert into the outbox, not yet run: callers put it in the same
 * `db.batch([...])` as the state change it reports.
 */
export function eventInsert(db: Database, event: NewEvent, at = nowIso()) {
  return db.insert(events).values(eventRow(event, at));
}

/** The outbox row of an event: one mapping for plain and guarded inserts. */
export function eventRow(event: NewEvent, at: string): EventRow {
  return {
    id: newId("evt", 24),
    organisationId: event.organisationId,
    environment: event.environment,
    api: event.api,
    event: event.event,
    subjectType: event.subjectType,
    subjectId: event.subjectId,
    test: event.test ?? false,
    detail: event.detail ?? {},
    createdAt: at,
    dispatchedAt: null,
  };
}
