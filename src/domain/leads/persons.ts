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

/**
 * A key for each person that names them by what they hold, not by their place in the list: the
 * portal's edit and remove links carry it, so removing someone in another tab cannot turn a link
 * to one person into a link to the next. The same person keeps the same key
 * however the list around them changes; two identical persons are told apart by their order among
 * themselves only. Not a secret and not a database id: a 53-bit digest of the person's fields.
 */
export function personKeys(persons: readonly object[]): string[] {
  const seen = new Map<string, number>();
  return persons.map((p) => {
    const digest = digest53(canonical(p));
    const n = (seen.get(digest) ?? 0) + 1;
    seen.set(digest, n);
    return n === 1 ? digest : `${digest}-${n}`;
  });
}

const canonical = (value: unknown): string =>
  value === null || typeof value !== "object"
    ? JSON.stringify(value ?? null)
    : Array.isArray(value)
      ? `[${value.map(canonical).join(",")}]`
      : `{${Object.keys(value)
          .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
          .join(",")}}`;

/** cyrb53: a fast, well-spread 53-bit string hash (public domain), in base 36. */
function digest53(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}
