/**
 * The outbox row of an event: the one mapping the plain insert (db/webhooks/events.ts) and the
 * guarded insert (db/guarded.ts) share. It sits on the db floor's ground, below db/webhooks/, so
 * the guarded helpers every capability uses do not reach up into a capability folder.
 */
import { getTableName } from "drizzle-orm";
import { events } from "./schema/events";
import { newId } from "../lib/ids";

export type EventRow = typeof events.$inferSelect;

/** The outbox's table, as the request's statements name it (lib/round-trips.ts reads the tables a request inserts into). */
export const OUTBOX_TABLE = getTableName(events);

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
