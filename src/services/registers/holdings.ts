/**
 * What the registers answered for a lead or test deal, as every view and the
 * submit matcher read it: the stored answers, and the figures the precedence
 * rule takes from them as of now.
 */
import type { RegisterFigures } from "../../domain/figures";
import { NOTHING_HELD, registerFigures, registryAsShown, type RegisterHolding } from "../../domain/registers/facts";
import type { RegistryAnswer, VatAnswer } from "../../domain/registers/types";
import type { RegisterAnswerRow } from "../../db/schema/registers";

export interface RegisterView {
  answers: RegisterHolding;
  figures: RegisterFigures | null;
}

/** The view from the stored rows (read in the lead's or deal's own batch, or by `answersOf`), its figures as of `asOf` (the caller's `deps.clock()`). */
export function registerViewFrom(rows: RegisterAnswerRow[], asOf: Date): RegisterView {
  const answers: RegisterHolding = { ...NOTHING_HELD };
  for (const row of rows) {
    // A row still waiting for its first answer shows nothing: `null` means not yet known.
    if (row.answer === null) continue;
    if (row.kind === "registry") answers.registry = registryAsShown(row.answer as RegistryAnswer);
    else answers.vat = row.answer as VatAnswer;
  }
  return { answers, figures: registerFigures(answers.registry, asOf) };
}

/**
 * When the company register was last asked for this owner, for a person to
 * read (the portal's register section): when it answered (facts or "no such
 * number"), else when the last attempt ended. Never a key of the registry
 * object, which with a `reason` is exactly `{source, status, reason}`.
 */
export function registryLastAsked(rows: RegisterAnswerRow[]): string | null {
  const row = rows.find((r) => r.kind === "registry");
  if (!row || row.answer === null) return null;
  return row.checkedAt ?? (row.attempts > 0 ? row.updatedAt : null);
}
