import type { RegistryDirector } from "../../../domain/registers/types";
import { text } from "../../answer";
import type { SourceContext } from "../../context";
import { appointmentList, disqualification, disqualifiedSearch, type OfficerItem } from "./schemas";
import { getResource, isSafePath } from "./client";

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

interface Disqualified {
  /** null when the register did not answer. */
  disqualified: boolean | null;
}

async function disqualificationOf(ctx: SourceContext, apiKey: string, officer: OfficerItem): Promise<Disqualified> {
  // A corporate director, or one without a birth month, cannot be matched safely: unknown, not "no".
  if (!officer.date_of_birth?.year || !officer.date_of_birth.month) return { disqualified: null };
  const wanted = comparableName(officer.name);
  const search = await getResource(
    ctx,
    apiKey,
    `/search/disqualified-officers?q=${encodeURIComponent(wanted)}&items_per_page=50`,
    "disqualified_officers_search",
    disqualifiedSearch,
  );
  if (!search.ok) return { disqualified: search.failure.reason === "not_found" ? false : null };
  const candidates = search.value.items.filter(
    (item) => comparableName(item.title) === wanted && sameBirthMonth(officer, item.date_of_birth) && isSafePath(item.links.self),
  );
  const on = today(ctx);
  for (const candidate of candidates) {
    const detail = await getResource(ctx, apiKey, candidate.links.self, "officer_disqualification", disqualification);
    if (!detail.ok) return { disqualified: null };
    const inForce = detail.value.disqualifications.some(
      (d) => (!d.disqualified_from || d.disqualified_from <= on) && (!d.disqualified_until || d.disqualified_until >= on),
    );
    if (inForce) return { disqualified: true };
  }
  return { disqualified: false };
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

export async function directorOf(ctx: SourceContext, apiKey: string, officer: OfficerItem, companyNumber: string): Promise<RegistryDirector> {
  const [appointments, disqualified] = await Promise.all([
    appointmentsOf(ctx, apiKey, officer, companyNumber),
    disqualificationOf(ctx, apiKey, officer),
  ]);
  return {
    name: officer.name,
    role: text(officer.officer_role),
    appointed_on: text(officer.appointed_on),
    resigned_on: text(officer.resigned_on),
    ...appointments,
    disqualified: disqualified.disqualified,
  };
}
