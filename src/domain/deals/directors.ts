/**
 * The directors of a deal side by side (issue 45 item 6): the significant persons the application
 * names (name, date of birth, share) beside the directors the company register lists (role,
 * appointed, resigned, disqualified), one row per person. Names are matched by their words in any
 * order and case, so the register's `LOVELACE, Ada Augusta` meets the application's `Ada Augusta
 * Lovelace`; a person on one side only keeps a row of their own. Pure.
 */

interface ApplicationPerson {
  full_name: string;
  date_of_birth: string | null;
  ownership_percent: number | null;
}

interface RegisterDirector {
  name: string | null;
  name_masked?: true;
  role: string | null;
  appointed_on: string | null;
  resigned_on: string | null;
  disqualified: boolean | null;
}

interface DirectorRow {
  name: string;
  application: { date_of_birth: string | null; ownership_percent: number | null } | null;
  register: { role: string | null; appointed_on: string | null; resigned_on: string | null; disqualified: boolean | null } | null;
}

/** A name's words, lower-cased and sorted: `LOVELACE, Ada` and `Ada Lovelace` give the same key. */
export const nameKey = (name: string) =>
  name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .sort()
    .join(" ");

/** A register's `SURNAME, Given Names` as a person writes it (`Given Names Surname`). */
const asWritten = (name: string) => {
  const [surname, given] = name.split(/,\s*/, 2);
  if (!given) return name;
  const title = (w: string) => (w === w.toUpperCase() ? w.charAt(0) + w.slice(1).toLowerCase() : w);
  return `${given} ${surname.split(/\s+/).map(title).join(" ")}`;
};

export function directorsSideBySide(persons: readonly ApplicationPerson[], directors: readonly RegisterDirector[] | null): DirectorRow[] {
  const rows: DirectorRow[] = persons.map((p) => ({ name: p.full_name, application: { date_of_birth: p.date_of_birth, ownership_percent: p.ownership_percent }, register: null }));
  for (const d of directors ?? []) {
    const register = { role: d.role, appointed_on: d.appointed_on, resigned_on: d.resigned_on, disqualified: d.disqualified };
    const key = d.name ? nameKey(d.name) : null;
    const match = key ? rows.find((r) => r.register === null && r.application !== null && nameKey(r.name) === key) : undefined;
    if (match) match.register = register;
    else rows.push({ name: d.name ? asWritten(d.name) : "Name withheld by the register", application: null, register });
  }
  return rows;
}
