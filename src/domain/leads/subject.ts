import type { Lead } from "./types";

/**
 * A lead's parts: what the applicant said of the business. A draft's change writes them, a routed deal
 * keeps them as its subject (a submitted lead no longer changes) and the sandbox business of a test deal
 * is a lead made of them.
 */
export type LeadSubject = Pick<Lead, "country" | "channel" | "business" | "contact" | "funding" | "trading" | "consent" | "significantPersons">;

/** The one list of a lead's parts: the parts of a lead, a deal's subject or a draft's change, and nothing else. */
export const subjectOf = (from: LeadSubject): LeadSubject => ({
  country: from.country,
  channel: from.channel,
  business: from.business,
  contact: from.contact,
  funding: from.funding,
  trading: from.trading,
  consent: from.consent,
  significantPersons: from.significantPersons,
});
