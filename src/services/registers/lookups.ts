/**
 * Asking the registers, off the request path. A lead write that sets or
 * changes a register number adds, in its own batch, the drop of every answer
 * that no longer fits the lead and a pending row per new lookup; after the
 * batch the lookups go on the REGISTER_LOOKUPS queue. The partner's request
 * never waits for a register: the queue consumer (src/jobs/register-consumer.ts)
 * asks it, and the cron re-sends a lookup whose message was lost.
 */
import type { Statement } from "../../db/batch";
import type { Deps } from "../deps";
import type { DataEnvironment } from "../../db/client";
import { leadLookupInsert, markLookupResent, overdueLookups, staleAnswersDelete } from "../../db/registers/answers";
import type { Lead } from "../../domain/leads/types";
import { lookupsDue, type RegisterKind } from "../../domain/registers/lookups";
import { randomToken } from "../../lib/crypto";

/**
 * What a REGISTER_LOOKUPS message carries: the row, the lookup it must still be, and the environment
 * whose database holds it (absent in a message sent before the sandbox had its own database: `DB`).
 */
export interface RegisterLookupMessage {
  owner_id: string;
  kind: RegisterKind;
  lookup_id: string;
  environment?: DataEnvironment;
}

export interface LookupWrites {
  /** Statements for the lead write's own batch, after the lead's insert or update. */
  statements: Statement[];
  /** To send once the batch has run. */
  messages: RegisterLookupMessage[];
}

/** The register side of a lead write: `before` is the lead as read (null for a new lead), `after` as written. */
export function lookupWrites({ db }: Deps, before: Lead | null, after: Lead, at: string): LookupWrites {
  const due = lookupsDue(before, after);
  const statements: Statement[] = before ? [staleAnswersDelete(db, after.id)] : [];
  const messages: RegisterLookupMessage[] = [];
  for (const n of due) {
    const lookupId = randomToken(16);
    statements.push(leadLookupInsert(db, { ownerId: after.id, kind: n.kind, environment: after.environment, country: n.country, number: n.number, lookupId, at }));
    messages.push({ owner_id: after.id, kind: n.kind, lookup_id: lookupId, environment: after.environment });
  }
  return { statements, messages };
}

/**
 * Sends lookups to the queue. A failed send is logged, not thrown: the lead
 * was written, the row is due, and the cron re-sends it (`requeueOverdueLookups`).
 */
/** The queue is `deps.env.REGISTER_LOOKUPS` (without one the rows wait for the cron). */
export async function sendLookups(deps: Deps, messages: RegisterLookupMessage[]) {
  const queue: Queue | undefined = deps.env.REGISTER_LOOKUPS;
  if (!queue || messages.length === 0) return;
  try {
    await queue.sendBatch(messages.map((body) => ({ body })));
  } catch (error) {
    deps.log.logError("register_lookups_send_failed", error, { messages: messages.length }, "warn");
  }
}

/** How long past its due time a lookup waits before the cron decides its message was lost. */
export const LOOKUP_OVERDUE_AFTER_MS = 5 * 60_000;

/** The cron's safety net: lookups due for longer than the grace period go on the queue again. */
export async function requeueOverdueLookups(deps: Deps) {
  const { db } = deps;
  const queue: Queue | undefined = deps.env.REGISTER_LOOKUPS;
  const now = deps.clock();
  if (!queue) return 0;
  const overdue = await overdueLookups(db, new Date(now.getTime() - LOOKUP_OVERDUE_AFTER_MS).toISOString(), 100);
  if (overdue.length === 0) return 0;
  await queue.sendBatch(overdue.map((o) => ({ body: { owner_id: o.ownerId, kind: o.kind, lookup_id: o.lookupId, environment: deps.environment ?? "live" } satisfies RegisterLookupMessage })));
  await Promise.all(overdue.map((o) => markLookupResent(db, o.ownerId, o.kind, o.lookupId, now.toISOString())));
  return overdue.length;
}
