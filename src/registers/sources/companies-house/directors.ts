import type { RegistryDirector } from "../../../domain/registers/types";
import { text } from "../../answer";
import type { SourceContext } from "../../context";
import { appointmentList, disqualification, disqualifiedSearch, type OfficerItem } from "./schemas";
import { getResource, isSafePath } from "./client";
import type { HttpFailure } from "../../http";
import type { z } from "zod";

/**
 * A director's record across the register: other appointments from the
 * officer's appointment list, and whether a disqualification is in force
 * (the disqualified-officers search, matched on name and month/year of birth,
 * then the disqualification itself for its dates).
 */

export const isDirectorRole = (role: string | null | undefined) => !!role && role.includes("director");

/** "BLOGGS, Joseph Edward" (officer list) and "Joseph Edward BLOGGS" (search titles) both become "joseph edward bloggs". */
export function comparableName(name: string): string {
  const [surname, forenames] = name.includes(",") ? name.split(",", 2) : [null, name];
  const ordered = surname === null ? forenames : `${forenames} ${surname}`;
  return ordered
    .toLowerCase()
    .replace(/\b(mr|mrs|ms|miss|dr|sir|dame|lord|lady)\b\.?/g, " ")
    .replace(/[^a-z\s'-]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

const sameBirthMonth = (officer: OfficerItem, searchDob: string | null | undefined) => {
  const match = searchDob ? /^(\d{4})-(\d{2})/.exec(searchDob) : null;
  const dob = officer.date_of_birth;
  return !!match && !!dob?.year && !!dob.month && Number(match[1]) === dob.year && Number(match[2]) === dob.month;
};

const today = (ctx: SourceContext) => ctx.now().toISOString().slice(0, 10);

/** Search results read per page, and the most pages read: beyond 1,000 results the match is not certain. */
const SEARCH_PAGE_SIZE = 100;
const SEARCH_MAX_PAGES = 10;

/** Why a director's `disqualified` is null: cannot be checked, no certain match, or the register did not answer. */
type DisqualificationGap = "not_checkable" | "uncertain_match" | "unanswered";

interface Disqualified {
  disqualified: boolean | null;
  gap: DisqualificationGap | null;
  /** The failed call, when the register did not answer (only that is worth asking again). */
  failure: HttpFailure | null;
}

const known = (disqualified: boolean): Disqualified => ({ disqualified, gap: null, failure: null });
const unknown = (gap: DisqualificationGap, failure: HttpFailure | null = null): Disqualified => ({ disqualified: null, gap, failure });

const surnameOf = (comparable: string) => comparable.split(" ").at(-1) ?? "";
const firstInitialOf = (comparable: string) => comparable.charAt(0);

type SearchItem = z.infer<typeof disqualifiedSearch>["items"][number];

/** Every page of the disqualified-officers search for a name (`total_results` says how many there are). */
async function searchAll(ctx: SourceContext, apiKey: string, name: string): Promise<{ ok: true; items: SearchItem[]; complete: boolean } | { ok: false; failure: HttpFailure }> {
  const items: SearchItem[] = [];
  for (let page = 0; page < SEARCH_MAX_PAGES; page++) {
    const search = await getResource(
      ctx,
      apiKey,
      `/search/disqualified-officers?q=${encodeURIComponent(name)}&items_per_page=${SEARCH_PAGE_SIZE}&start_index=${items.length}`,
      "disqualified_officers_search",
      disqualifiedSearch,
    );
    if (!search.ok) return search.failure.reason === "not_found" ? { ok: true, items, complete: true } : search;
    items.push(...search.value.items);
    const total = search.value.total_results ?? items.length;
    if (search.value.items.length === 0 || items.length >= total) return { ok: true, items, complete: true };
  }
  return { ok: true, items, complete: false };
}

async function disqualificationOf(ctx: SourceContext, apiKey: string, officer: OfficerItem): Promise<Disqualified> {
  // A corporate director, or one without a birth month, cannot be matched safely: unknown, not "no", and asking again will not change it.
  if (!officer.date_of_birth?.year || !officer.date_of_birth.month) return unknown("not_checkable");
  const wanted = comparableName(officer.name);
  const search = await searchAll(ctx, apiKey, wanted);
  if (!search.ok) return unknown("unanswered", search.failure);
  const certain: SearchItem[] = [];
  let uncertain = !search.complete;
  for (const item of search.items) {
    const name = comparableName(item.title);
    const sameName = name === wanted;
    const sameBirth = sameBirthMonth(officer, item.date_of_birth);
    if (sameName && sameBirth && isSafePath(item.links.self)) certain.push(item);
    // The same name with no birth date to compare, or the same surname, initial and birth month under other forenames: maybe them.
    else if ((sameName && !item.date_of_birth) || (sameBirth && surnameOf(name) === surnameOf(wanted) && firstInitialOf(name) === firstInitialOf(wanted))) uncertain = true;
  }
  const on = today(ctx);
  for (const candidate of certain) {
    const detail = await getResource(ctx, apiKey, candidate.links.self, "officer_disqualification", disqualification);
    if (!detail.ok) return unknown("unanswered", detail.failure);
    const inForce = detail.value.disqualifications.some(
      (d) => (!d.disqualified_from || d.disqualified_from <= on) && (!d.disqualified_until || d.disqualified_until >= on),
    );
    if (inForce) return known(true);
  }
  return uncertain ? unknown("uncertain_match") : known(false);
}

interface OtherAppointments {
  other_active_appointments: number | null;
  other_resigned_appointments: number | null;
  dissolved_companies: number | null;
}

const UNKNOWN_APPOINTMENTS: OtherAppointments = { other_active_appointments: null, other_resigned_appointments: null, dissolved_companies: null };

async function appointmentsOf(ctx: SourceContext, apiKey: string, officer: OfficerItem, companyNumber: string): Promise<OtherAppointments> {
  const path = officer.links?.officer?.appointments;
  if (!isSafePath(path)) return UNKNOWN_APPOINTMENTS;
  const result = await getResource(ctx, apiKey, `${path}?items_per_page=50`, "officer_appointments", appointmentList);
  if (!result.ok) return UNKNOWN_APPOINTMENTS;
  const list = result.value;
  const others = list.items.filter((a) => a.appointed_to?.company_number !== companyNumber);
  const activeOthers = others.filter((a) => !a.resigned_on).length;
  const resignedOthers = others.filter((a) => !!a.resigned_on).length;
  // The counts cover every page; the items only the first. This appointment is active, so it is taken off the total.
  const complete = list.total_results === null || list.total_results === undefined || list.total_results <= list.items.length;
  const dissolved = new Set(others.filter((a) => a.appointed_to?.company_status === "dissolved").map((a) => a.appointed_to?.company_number));
  return {
    other_active_appointments: complete || list.active_count == null ? activeOthers : Math.max(0, list.active_count - 1),
    other_resigned_appointments: complete || list.resigned_count == null ? resignedOthers : list.resigned_count,
    dissolved_companies: complete ? dissolved.size : null,
  };
}

interface CheckedDirector {
  director: RegistryDirector;
  /** Why `disqualified` is null, if it is. */
  reason: DisqualificationGap | null;
  /** The failed call when the register did not answer the check; null otherwise. */
  unanswered: HttpFailure | null;
}

export async function directorOf(ctx: SourceContext, apiKey: string, officer: OfficerItem, companyNumber: string): Promise<CheckedDirector> {
  const [appointments, disqualified] = await Promise.all([
    appointmentsOf(ctx, apiKey, officer, companyNumber),
    disqualificationOf(ctx, apiKey, officer),
  ]);
  return {
    director: {
      name: officer.name,
      role: text(officer.officer_role),
      appointed_on: text(officer.appointed_on),
      resigned_on: text(officer.resigned_on),
      ...appointments,
      disqualified: disqualified.disqualified,
    },
    reason: disqualified.gap,
    unanswered: disqualified.failure,
  };
}
