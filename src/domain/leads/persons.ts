/** Rules on significant persons that a schema cannot say alone. */

const ADULT_AGE = 18;
const OLDEST_AGE = 120;

/**
 * A date of birth must be a real calendar date (`YYYY-MM-DD`), in the past, of
 * someone at least 18 and at most 120 years old. Returns the problem, or null.
 */
export function dateOfBirthProblem(text: string, today: Date): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return "must be a date written YYYY-MM-DD";
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return "is not a real calendar date";
  if (date.getTime() >= today.getTime()) return "must be in the past";
  const age = today.getUTCFullYear() - y - (today.getUTCMonth() + 1 < mo || (today.getUTCMonth() + 1 === mo && today.getUTCDate() < d) ? 1 : 0);
  if (age < ADULT_AGE) return `the person must be at least ${ADULT_AGE} years old`;
  if (age > OLDEST_AGE) return `is more than ${OLDEST_AGE} years ago`;
  return null;
}

/** Ownership shares cannot add up to more than the whole business. */
export function totalOwnershipProblem(persons: { ownership_percent?: number | null }[]): string | null {
  const total = persons.reduce((sum, p) => sum + (p.ownership_percent ?? 0), 0);
  // A little slack for decimals such as 33.33 × 3.
  return total > 100.0001 ? `ownership_percent adds up to ${total} across significant persons; it cannot exceed 100.` : null;
}
