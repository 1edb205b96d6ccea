/**
 * What a lender needs before it can say yes: a panel product may declare requirements, each an
 * item the application must hold, optionally only when a condition on the business holds
 * ("a personal guarantee for sole traders under 100,000"). The matcher leaves out a product whose
 * applicable requirements the application does not meet, and `needsFor` tells the partner what to
 * add for more options. Pure: the caller says what the application holds (`heldRequirements`).
 */
import type { ParsedStatement } from "../documents/types";
import { REQUIREMENT_FIELDS, REQUIREMENT_FIELD_VALUES, type RequirementField } from "../reference/values";

export { REQUIREMENT_FIELD_VALUES, type RequirementField };

const STATEMENT_MONTHS: Partial<Record<RequirementField, number>> = { "statements.3_months": 3, "statements.6_months": 6, "statements.12_months": 12 };

/**
 * When a requirement applies; every condition given must hold. Amounts are major units of the
 * product's currency, compared with the funding amount the matcher uses.
 */
interface RequirementCondition {
  entity_types?: string[];
  amount_below?: number;
  amount_at_least?: number;
}

export interface Requirement {
  field: RequirementField;
  when?: RequirementCondition;
}

/** The facts a condition reads; null where the service does not know them. */
interface ConditionFacts {
  entityType: string | null;
  amount: number | null;
}

/**
 * Whether a requirement applies to the business. A condition on a fact the service does not hold
 * does not hold (an unknown fact excludes nothing): prequalification, which takes no company
 * type, never applies a requirement conditioned on one.
 */
export function requirementApplies(requirement: Requirement, facts: ConditionFacts): boolean {
  const when = requirement.when;
  if (!when) return true;
  if (when.entity_types !== undefined && (facts.entityType === null || !when.entity_types.includes(facts.entityType))) return false;
  if (when.amount_below !== undefined && (facts.amount === null || !(facts.amount < when.amount_below))) return false;
  if (when.amount_at_least !== undefined && (facts.amount === null || !(facts.amount >= when.amount_at_least))) return false;
  return true;
}

/** The fields a product needs of this business that the application does not hold, in the list's order, each once. */
export function missingRequirements(requires: readonly Requirement[], facts: ConditionFacts, held: ReadonlySet<RequirementField>): RequirementField[] {
  const missing = new Set<RequirementField>();
  for (const requirement of requires) {
    if (requirementApplies(requirement, facts) && !held.has(requirement.field)) missing.add(requirement.field);
  }
  return REQUIREMENT_FIELD_VALUES.filter((field) => missing.has(field));
}

/** The calendar months (`YYYY-MM`) one statement's period touches. */
function monthsOf(statement: Pick<ParsedStatement, "period_start" | "period_end">): string[] {
  const months: string[] = [];
  let [year, month] = statement.period_start.slice(0, 7).split("-").map(Number);
  const [endYear, endMonth] = statement.period_end.slice(0, 7).split("-").map(Number);
  for (let guard = 0; (year < endYear || (year === endYear && month <= endMonth)) && guard < 240; guard++) {
    months.push(`${year}-${String(month).padStart(2, "0")}`);
    month += 1;
    if (month === 13) [year, month] = [year + 1, 1];
  }
  return months;
}

/** What an application holds, read from the lead and its accepted, parsed bank statements. */
interface HeldSources {
  business?: { company_number?: string | null; vat?: { number?: string | null } | null } | null;
  contact?: { phone?: string | null } | null;
  significantPersons: readonly { guarantee?: boolean | null }[];
  /** Accepted documents' parsed statements (null for a document that is not a statement). */
  statements: readonly (Pick<ParsedStatement, "period_start" | "period_end"> | null)[];
}

/**
 * The requirement fields an application holds. Statements count by the distinct calendar months
 * their periods cover together, so two three-month statements cover six months.
 */
export function heldRequirements(sources: HeldSources): Set<RequirementField> {
  const held = new Set<RequirementField>();
  if (sources.business?.company_number) held.add("business.company_number");
  if (sources.business?.vat?.number) held.add("business.vat.number");
  if (sources.contact?.phone) held.add("contact.phone");
  if (sources.significantPersons.length > 0) held.add("significant_persons");
  if (sources.significantPersons.some((p) => p.guarantee === true)) held.add("significant_persons[].guarantee");
  const covered = new Set(sources.statements.flatMap((s) => (s ? monthsOf(s) : [])));
  for (const [field, months] of Object.entries(STATEMENT_MONTHS)) {
    if (covered.size >= months!) held.add(field as RequirementField);
  }
  return held;
}

/** What to add for more options: a set of fields and how many options the match would gain with them. */
export interface Need {
  fields: RequirementField[];
  options_added: number;
}

/**
 * The needs of a match: for each product left out only by its requirements, the fields it lacks,
 * grouped by that set; each set is counted by re-running the match with it held (`countWith`), so
 * a family preference or another criterion weighs as it would at submit. Fewest fields first,
 * then most options.
 */
export function needsFor(lackingSets: readonly RequirementField[][], now: number, countWith: (added: readonly RequirementField[]) => number): Need[] {
  const distinct = new Map<string, RequirementField[]>();
  for (const fields of lackingSets) if (fields.length > 0) distinct.set(fields.join(" "), fields);
  const needs: Need[] = [];
  for (const fields of distinct.values()) {
    const added = countWith(fields) - now;
    if (added > 0) needs.push({ fields, options_added: added });
  }
  return needs.sort((a, b) => a.fields.length - b.fields.length || b.options_added - a.options_added || a.fields.join().localeCompare(b.fields.join()));
}

export const requirementLabel = (field: string) => REQUIREMENT_FIELDS.find((f) => f.value === field)?.label ?? field;
