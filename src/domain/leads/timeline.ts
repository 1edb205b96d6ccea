/** Timeline entries written at submit. */
import type { TimelineEntry } from "./types";

/**
 * A lead event as a timeline entry. `lead.out_of_scope` carries the matcher's
 * reasons (the same list as `out_of_scope_reasons`), so the timeline says why,
 * e.g. `company_not_active` when the company register says it no longer trades.
 */
export function timelineEntry(event: string, occurredAt: string, reasons: readonly { code: string; detail: string }[] = []): TimelineEntry {
  if (event !== "lead.out_of_scope") return { event, occurred_at: occurredAt };
  return { event, occurred_at: occurredAt, reasons: reasons.map((r) => ({ code: r.code, detail: r.detail })) };
}
