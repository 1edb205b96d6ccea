/**
 * A lead as the service holds it. Every part is what the applicant (through the
 * partner) said; an absent or null key is unknown. Figures derived from bands,
 * the register or statements are never stored here: the view derives them.
 */
import type { LeadState } from "../reference/values";

export interface LeadChannel {
  name?: string | null;
  domain?: string | null;
}

export interface LeadBusiness {
  name?: string | null;
  company_number?: string | null;
  entity_type?: string | null;
  industry?: string | null;
  vat?: { number?: string | null } | null;
}

export interface LeadContact {
  first_name?: string | null;
  last_name?: string | null;
  email?: string | null;
  phone?: string | null;
}

export interface LeadFunding {
  amount?: number | null;
  amount_band?: string | null;
  purpose?: string | null;
  product_family?: string | null;
}

export interface LeadTrading {
  monthly_revenue?: number | null;
  monthly_revenue_band?: string | null;
  annual_turnover?: number | null;
  tib_months?: number | null;
  time_in_business_band?: string | null;
  credit_score_band?: string | null;
}

export interface LeadConsent {
  obtained?: boolean | null;
  obtained_at?: string | null;
  soft_credit_search?: boolean | null;
  /** The consent text version the consent was given on (domain/leads/consent-texts.ts). */
  text_version?: string | null;
  /** What the service can prove of the consent (domain/leads/consent.ts); written by the service, never by a body. */
  receipt?: ConsentReceipt | null;
  /** When the business withdrew its consent before submission; submit is refused while set. */
  withdrawn_at?: string | null;
}

/** How the consent reached the service. */
export type ConsentChannel = "application_link" | "partner_api" | "portal";

export interface ConsentReceipt {
  text_version: string;
  text_sha256: string;
  locale: string;
  agreed_at: string;
  channel: ConsentChannel;
  soft_credit_search: boolean;
  /** The commission disclosure version shown with the text; null where none was shown (the partner API). */
  disclosure_version: string | null;
  /** The locale of the disclosure text shown; null where none was shown, or on a receipt written before it was recorded (then the English text). */
  disclosure_locale: string | null;
  /** sha256 (hex) of that disclosure text (with its `{name}` placeholder); null as `disclosure_locale`. */
  disclosure_sha256: string | null;
}

export interface ResidentialAddress {
  line1: string;
  line2?: string | null;
  city?: string | null;
  region?: string | null;
  postal_code: string;
  country?: string | null;
}

export interface SignificantPerson {
  full_name: string;
  date_of_birth: string;
  residential_address: ResidentialAddress;
  residency_status?: string | null;
  ownership_percent?: number | null;
  /** The person offers a personal guarantee for the funding (a product may require one: domain/panel/requirements.ts). */
  guarantee?: boolean | null;
}

export interface TimelineEntry {
  event: string;
  occurred_at: string;
  /** On `lead.out_of_scope`: the matcher's reasons (e.g. `company_not_active`). */
  reasons?: { code: string; detail: string }[];
}

export interface LeadOption {
  product_family: string;
  label: string;
  options: number;
}

/** The writable parts of a lead (create body, PATCH body after parsing). */
export interface LeadParts {
  partner_reference?: string | null;
  channel?: LeadChannel | null;
  business?: LeadBusiness | null;
  contact?: LeadContact | null;
  funding?: LeadFunding | null;
  trading?: LeadTrading | null;
  consent?: LeadConsent | null;
  significant_persons?: SignificantPerson[] | null;
}

export interface Lead {
  id: string;
  reference: string;
  organisationId: string;
  environment: "sandbox" | "live";
  /** Market alpha-2. */
  country: string;
  partnerReference: string | null;
  state: LeadState;
  channel: LeadChannel | null;
  business: LeadBusiness | null;
  contact: LeadContact | null;
  funding: LeadFunding | null;
  trading: LeadTrading | null;
  consent: LeadConsent | null;
  significantPersons: SignificantPerson[];
  timeline: TimelineEntry[];
  matchedOptions: number | null;
  options: LeadOption[] | null;
  version: number;
  submittedAt: string | null;
  /** The funded lead this draft renews (POST /leads/{id}/renewals); null when not a renewal. */
  renewalOf: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A renewal as the lead it renews lists it. */
export interface RenewalSummary {
  id: string;
  reference: string;
  state: LeadState;
  createdAt: string;
}

/**
 * What became of one routed option, as the partner reads it: numbered in routing order,
 * its product family, the outcome, and the decline reasons as labelled codes. Never the provider,
 * and a lender's note only when the lender marked it shareable.
 */
export interface PartnerOutcome {
  option: string;
  product_family: string | null;
  outcome: "pending" | "in_review" | "offer_made" | "offer_accepted" | "declined" | "funded";
  reasons: { code: string; label: string; detail: string | null }[];
  at: string;
}
