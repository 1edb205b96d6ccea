import type { Database } from "../client";
import { events } from "../schema/events";
import { nowIso } from "../../lib/ids";
import { eventRow, type EventRow, type NewEvent } from "../event-rows";

export type { EventRow, NewEvent };

/**
 * An insert into the outbox, not yet run: callers put it in the same
 * `db.batch([...])` as the state change it reports.
 */
export function eventInsert(db: Database, event: NewEvent, at = nowIso()) {
  return db.insert(events).values(eventRow(event, at));
}
