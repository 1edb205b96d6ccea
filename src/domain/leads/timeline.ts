/** Timeline entries written at submit. */
import type { TimelineEntry } from "./types";

const isUnknownReason = (code: string) => code.endsWith("_unknown");

/**
 * A lead event as a timeline entry. `lead.out_of_scope` carries the matcher's
 * decisive reason: the first reason that excluded something (the reasons come
 * in the matcher's order, exclusions before facts that were not known).
 */
export function timelineEntry(event: string, occurredAt: string, reasons: readonly { code: string; detail: string }[] = []): TimelineEntry {
  if (event !== "lead.out_of_scope") return { event, occurred_at: occurredAt };
  const decisive = reasons.find((r) => !isUnknownReason(r.code)) ?? reasons[0];
  return decisive ? { event, occurred_at: occurredAt, reason: { code: decisive.code, detail: decisive.detail } } : { event, occurred_at: occurredAt };
}
