import type { LeadSubject } from "../leads/subject";
import type { LenderStatus } from "../reference/values";
import type { DeclineReason } from "./decline";

/** The business as it was routed: a copy of the submitted lead's parts (a submitted lead no longer changes). */
export type DealSubject = LeadSubject;

/** The deal's own life cycle, beside the lender's reported `lender_status`. */
export const DEAL_STATUSES = ["submitted", "offer_accepted", "funded", "declined"] as const;
export type DealStatus = (typeof DEAL_STATUSES)[number];

/** A funded deal that ended early (issue 43): repaid in full before its term, or defaulted. lender_status stays `funded`. */
export const REPAYMENT_OUTCOMES = ["settled_early", "defaulted"] as const;
export type RepaymentOutcome = (typeof REPAYMENT_OUTCOMES)[number];

export interface Deal {
  ref: string;
  lenderOrganisationId: string;
  environment: "sandbox" | "live";
  leadId: string | null;
  /** The partner that owns the lead; internal, never shown to the lender. */
  partnerOrganisationId: string | null;
  test: boolean;
  productIds: string[];
  subject: DealSubject;
  status: DealStatus;
  lenderStatus: LenderStatus;
  statusReason: string | null;
  /** Why the lender declined, as codes; empty until declined. */
  declineReasons: DeclineReason[];
  /** The product family the deal was routed for; null for test deals. */
  productFamily: string | null;
  fundedAmount: number | null;
  accountSubmittedAt: string | null;
  accountSummary: string | null;
  agreementUploadedAt: string | null;
  signedAt: string | null;
  signatureVerification: string | null;
  /** The lender's report that the funded deal ended early (`settled_early`, `defaulted`), and when; null until then. */
  repaymentOutcome?: RepaymentOutcome | null;
  repaymentOutcomeAt?: string | null;
  createdAt: string;
  updatedAt: string;
}

export type OfferMaturity = "indicative" | "firm";
/** presented → accepted, or closed when another offer was accepted or the deal was declined, or declined by the business. */
export type OfferState = "presented" | "accepted" | "closed" | "declined";

export interface Offer {
  id: string;
  leadId: string | null;
  dealRef: string | null;
  lenderOrganisationId: string;
  label: string;
  maturity: OfferMaturity;
  kind: string;
  amount: number;
  currency: string;
  annualRatePct: number | null;
  factorRate: number | null;
  termMonths: number | null;
  fees: number | null;
  totalRepayment: number | null;
  expiresAt: string | null;
  notes: string | null;
  state: OfferState;
  /** The business's code when it declined the offer; null otherwise. */
  declinedReason: string | null;
  declinedAt: string | null;
  superseded: boolean;
  supersededAt: string | null;
  supersededBy: OfferMaturity | null;
  simulated: boolean;
  createdAt: string;
}

export interface DealMessage {
  id: string;
  direction: "lender_to_borrower" | "borrower_to_lender";
  body: string;
  /** Set on the client's replies from the hub only. */
  subject?: string | null;
  fromEmail?: string | null;
  createdAt: string;
}

/** Whether an offer can still be accepted at `now`. */
export const isAcceptable = (offer: Offer, now: Date) =>
  offer.state === "presented" && !offer.superseded && (offer.expiresAt === null || new Date(offer.expiresAt) > now);
