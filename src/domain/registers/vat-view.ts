/** The `vat` object a lead and a deal show. */
import type { VatAnswer } from "./types";

/**
 * The VAT register's stored answer; before it, the number as given and
 * nothing checked yet (`reason: "no_number"` when no number is held).
 */
export function vatView(number: string | null | undefined, stored: VatAnswer | null) {
  if (stored) return stored;
  return {
    number: number ?? null,
    valid: null,
    checked_at: null,
    source: null,
    registered_name: null,
    registered_address: null,
    reason: number ? null : "no_number",
  };
}
