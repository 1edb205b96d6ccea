/**
 * What a renewal carries over from the funded lead it renews. The business,
 * its people and what it said about itself are still true, so the partner
 * only corrects what changed: partner reference, channel, business, contact,
 * funding, trading and significant persons. Not carried: consent (a new
 * application needs the applicant's consent again, in particular to a new
 * soft credit search), documents (statements age; the client uploads fresh
 * ones), offers, routing, state and timeline (a renewal starts as a draft).
 */
import type { Lead, LeadParts } from "./types";

export const RENEWABLE_STATE = "funded" as const;

export const isRenewable = (lead: Pick<Lead, "state">) => lead.state === RENEWABLE_STATE;

const copy = <T>(value: T): T => (value === null || value === undefined ? value : structuredClone(value));

export function renewalParts(original: Lead): LeadParts {
  return {
    partner_reference: original.partnerReference,
    channel: copy(original.channel),
    business: copy(original.business),
    contact: copy(original.contact),
    funding: copy(original.funding),
    trading: copy(original.trading),
    significant_persons: copy(original.significantPersons),
  };
}
