/**
 * What the rest of the service reads from a stored register answer: the
 * figures the precedence rule takes from the register, whether the company is
 * still trading, and the identifiers a lender's market object carries.
 */
import type { RegisterFigures } from "../figures";
import { monthsSince } from "../figures";
import type { Market } from "../reference/markets";
import type { RegistryAnswer, RegistryAvailable, VatAnswer } from "./types";

/** What is stored for a lead (or a test deal): each answer, or null while none is stored. */
export interface RegisterHolding {
  registry: RegistryAnswer | null;
  vat: VatAnswer | null;
}

export const NOTHING_HELD: RegisterHolding = { registry: null, vat: null };

const availableOrNull = (answer: RegistryAnswer | null | undefined): RegistryAvailable | null =>
  answer && answer.status === "available" ? answer : null;

/**
 * The register's figures: months trading from the incorporation date as of
 * `asOf` (the company keeps ageing after `checked_at`), and the turnover of
 * the latest filed accounts. Nothing when the register has not answered.
 */
export function registerFigures(answer: RegistryAnswer | null | undefined, asOf: Date): RegisterFigures | null {
  const facts = availableOrNull(answer);
  if (!facts) return null;
  return {
    tib_months: facts.incorporated_on ? monthsSince(facts.incorporated_on, asOf) : null,
    annual_turnover: facts.filed_financials?.turnover ?? null,
  };
}

/**
 * Register statuses of a company that no longer trades or is being wound up,
 * written the way the sources write them (lower case, `-` and spaces as `_`).
 * A status outside this list, or no status, refuses nothing (the unknown
 * rule): only a register that says so takes a company out of scope.
 */
const NOT_ACTIVE_STATUSES = new Set([
  "dissolved",
  "liquidation",
  "in_liquidation",
  "receivership",
  "administration",
  "in_administration",
  "insolvency_proceedings",
  "converted_closed",
  "closed",
  "removed",
  "struck_off",
  "ceased",
  "cancelled",
  "deregistered",
  "inactive",
  "bankrupt",
]);

export const normaliseStatus = (status: string) => status.trim().toLowerCase().replace(/[\s-]+/g, "_");

/** The status words the sources are known to write (normalised): the trading ones, then the not-active ones; the pages that show a status word label each. */
export const REGISTER_STATUS_WORDS: readonly string[] = ["active", "open", "registered", "restructuring", "voluntary_arrangement", ...NOT_ACTIVE_STATUSES];

/** The register's status when it says the company is not active, else null. */
export function notActiveStatus(answer: RegistryAnswer | null | undefined): string | null {
  const status = availableOrNull(answer)?.company_status;
  if (!status) return null;
  return NOT_ACTIVE_STATUSES.has(normaliseStatus(status)) ? status : null;
}

/** The market's identifier keys, each the register's value or null (only keys the market has). */
export function identifiersFor(market: Market, answer: RegistryAnswer | null | undefined): Record<string, string | null> {
  const held = availableOrNull(answer)?.identifiers ?? {};
  return Object.fromEntries(market.identifier_keys.map((k) => [k, held[k] ?? null]));
}

/** A stored registry answer as every read shows it: an unanswered one cut to its three keys (rows stored before that rule carried `checked_at`). */
export function registryAsShown(answer: RegistryAnswer): RegistryAnswer {
  if (answer.status === "available") return answer;
  return { source: answer.source, status: answer.status, reason: answer.reason };
}
