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
  };
}
