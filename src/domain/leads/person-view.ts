/** A significant person as both APIs answer it: every address key present, null when not held. Pure. */
import type { SignificantPerson } from "./types";
import { orNull } from "../../lib/nullable";

export function personView(p: SignificantPerson) {
  const a = p.residential_address;
  return {
    full_name: p.full_name,
    date_of_birth: p.date_of_birth,
    residential_address: {
      line1: a.line1,
      line2: orNull(a.line2),
      city: orNull(a.city),
      region: orNull(a.region),
      postal_code: a.postal_code,
      country: orNull(a.country),
    },
    residency_status: orNull(p.residency_status),
    ownership_percent: orNull(p.ownership_percent),
    guarantee: orNull(p.guarantee),
  };
}

/** The applicant's contact as both APIs answer it: every key present, null when not held. */
export function contactView(c: { first_name?: string | null; last_name?: string | null; email?: string | null; phone?: string | null } | null | undefined) {
  return { first_name: orNull(c?.first_name), last_name: orNull(c?.last_name), email: orNull(c?.email), phone: orNull(c?.phone) };
}
