/**
 * A statement's month: `YYYY-MM` in UTC. An entry belongs to the month of its `created_at` in UTC, so a
 * month's entries are the ones written in [first instant of the month, first instant of the next).
 */
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

export const isMonth = (value: string) => MONTH.test(value);

/** The month of an ISO timestamp (UTC). */
export const monthOf = (iso: string) => new Date(iso).toISOString().slice(0, 7);

/** The month's first instant and the next month's, as ISO strings: a half-open range. */
export function monthRange(month: string): { from: string; until: string } {
  const m = MONTH.exec(month);
  if (!m) throw new RangeError(`Not a month: ${month}`);
  const year = Number(m[1]);
  const index = Number(m[2]) - 1;
  return { from: new Date(Date.UTC(year, index, 1)).toISOString(), until: new Date(Date.UTC(year, index + 1, 1)).toISOString() };
}
