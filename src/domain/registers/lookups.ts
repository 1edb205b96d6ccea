/**
 * Which register lookups a lead asks for, and when a stored answer goes stale.
 * Pure: the services turn these into rows and queue messages.
 *
 * A lead asks the company register about `business.company_number` (markets
 * that have one) and the VAT register about `business.vat.number` (markets
 * where a VAT register is checked). A lookup is due when the number is set or
 * changes, or when the market changes under an unchanged number (another
 * register then answers for it).
 */
import { marketFor } from "../reference/markets";

export const REGISTER_KINDS = ["registry", "vat"] as const;
export type RegisterKind = (typeof REGISTER_KINDS)[number];

export interface RegisterNumber {
  kind: RegisterKind;
  /** Market alpha-2. */
  country: string;
  number: string;
}

/** What a lookup reads of a lead (structural, so the registers know nothing of the lead's other parts). */
export interface RegisterNumberHolder {
  country: string;
  business?: { company_number?: string | null; vat?: { number?: string | null } | null } | null;
}

const given = (v: string | null | undefined): v is string => typeof v === "string" && v.trim() !== "";

/** The numbers a lead holds that a register can be asked about. */
export function registerNumbersOf(lead: RegisterNumberHolder): RegisterNumber[] {
  const market = marketFor(lead.country);
  const numbers: RegisterNumber[] = [];
  const companyNumber = lead.business?.company_number;
  if (market.register_number_label !== null && given(companyNumber)) numbers.push({ kind: "registry", country: market.country, number: companyNumber });
  const vatNumber = lead.business?.vat?.number;
  if (market.vat_checked && given(vatNumber)) numbers.push({ kind: "vat", country: market.country, number: vatNumber });
  return numbers;
}

const sameNumber = (a: RegisterNumber, b: RegisterNumber) => a.kind === b.kind && a.country === b.country && a.number === b.number;

/** The lookups a write makes due: every number `after` holds that `before` did not hold in the same market. */
export function lookupsDue(before: RegisterNumberHolder | null, after: RegisterNumberHolder): RegisterNumber[] {
  const held = before ? registerNumbersOf(before) : [];
  return registerNumbersOf(after).filter((n) => !held.some((h) => sameNumber(h, n)));
}
