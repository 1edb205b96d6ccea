/**
 * The log line of one register or VAT lookup attempt: which row (the lead's
 * or deal's id and the kind), which adapter, what it answered and what
 * follows. Never the company or VAT number, a registered name, an address or
 * a director: the answer's status and reason code are all that is kept.
 */
import type { RegisterAnswerRow } from "../../db/schema/registers";
import type { RegistryAnswer, VatAnswer } from "../../domain/registers/types";
import type { Logger } from "../deps";
import type { RegisterLookupMessage } from "./lookups";

/** `available`/`unavailable` for a register; `valid`/`invalid`/`unanswered` for a VAT check. */
function statusOf(kind: RegisterAnswerRow["kind"], answer: RegistryAnswer | VatAnswer): { outcome: string; reason: string | null } {
  if (kind === "registry") {
    const registry = answer as RegistryAnswer;
    return { outcome: registry.status, reason: registry.status === "unavailable" ? registry.reason : null };
  }
  const vat = answer as VatAnswer;
  return { outcome: vat.valid === null ? "unanswered" : vat.valid ? "valid" : "invalid", reason: vat.reason };
}

export interface LookupLog {
  row: Pick<RegisterAnswerRow, "ownerId" | "kind" | "environment" | "country">;
  /** The adapter's name (`companies_house`, `vies`, `sandbox`…); null where the market has no VAT register. */
  source: string | null;
  attempt: number;
  answer: RegistryAnswer | VatAnswer;
  /** A failed retry kept the facts an earlier attempt stored. */
  keptEarlier: boolean;
  /** False when the row changed while the source was asked (a newer number): nothing was written. */
  stored: boolean;
  retryInSeconds: number | null;
  durationMs: number;
}

export function logLookup({ log }: Logger, { row, source, attempt, answer, keptEarlier, stored, retryInSeconds, durationMs }: LookupLog) {
  const { outcome, reason } = statusOf(row.kind, answer);
  log(retryInSeconds === null ? "info" : "warn", "register_lookup", {
    owner_id: row.ownerId,
    kind: row.kind,
    environment: row.environment,
    country: row.country,
    source,
    attempt,
    outcome,
    reason,
    kept_earlier: keptEarlier,
    stored,
    retry_in_s: retryInSeconds,
    duration_ms: durationMs,
  });
}

/** A message whose row is gone, answered or replaced by a newer lookup: acknowledged without asking. */
export function logLookupSkipped({ log }: Logger, message: RegisterLookupMessage) {
  log("info", "register_lookup", { owner_id: message.owner_id, kind: message.kind, outcome: "skipped", reason: "superseded" });
}

/** A message put back without asking: its row is not due yet, or its register asked us to wait. */
export function logLookupPostponed({ log }: Logger, row: Pick<RegisterAnswerRow, "ownerId" | "kind" | "environment" | "country">, source: string | null, retryInSeconds: number) {
  log("info", "register_lookup", { owner_id: row.ownerId, kind: row.kind, environment: row.environment, country: row.country, source, outcome: "postponed", reason: "paced", retry_in_s: retryInSeconds });
}
