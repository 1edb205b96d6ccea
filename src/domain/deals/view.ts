/**
 * The deal as the lender API answers it (`GET /v1/deals/{ref}`, and the
 * `full` webhook payloads). Pure. Figures come from `resolveFigures`, so the
 * band and precedence rules are the partner lead's. Unknown rule: keys the
 * market carries are present, null when not held (a register fact is null
 * until the register's answer is stored).
 */
import { consentView } from "../leads/consent";
import { lenderReasonView } from "./decline";
import { statementFigures, statementSummary } from "../documents/statements";
import type { StoredDocument } from "../documents/types";
import type { DealDocumentView } from "../documents/view";
import { figureFields, resolveFigures } from "../figures";
import { contactView, personView } from "../leads/person-view";
import { dealOfferView } from "./offer-view";
import { vatView } from "../registers/vat-view";
import { identifiersFor, NOTHING_HELD, type RegisterHolding } from "../registers/facts";
import type { RegisterFigures } from "../figures";
import { marketFor, type Market } from "../reference/markets";
import type { Deal, DealMessage, Offer } from "./types";
import { orNull } from "../../lib/nullable";

/** The files a lender may see on a deal: the stored documents, and their views with signed links. */
export interface DealFiles {
  stored: readonly StoredDocument[];
  views: readonly DealDocumentView[];
}

export const NO_FILES: DealFiles = { stored: [], views: [] };

/** What the registers answered for the deal's business (the lead's answers; a test deal's own fixture). */
export interface DealRegister {
  answers: RegisterHolding;
  figures: RegisterFigures | null;
}

export const NO_REGISTER: DealRegister = { answers: NOTHING_HELD, figures: null };

export function dealFigures(deal: Pick<Deal, "subject">, market: Market, files: DealFiles = NO_FILES, register: DealRegister = NO_REGISTER) {
  return resolveFigures({ applicant: { ...deal.subject.trading, ...deal.subject.funding }, register: register.figures, statements: statementFigures(files.stored) }, market);
}

export function messageView(m: DealMessage) {
  return { id: m.id, direction: m.direction, body: m.body, created_at: m.createdAt };
}

export function completionView(deal: Deal) {
  return {
    account_submitted: deal.accountSubmittedAt !== null,
    account_submitted_at: deal.accountSubmittedAt,
    account_summary: deal.accountSummary,
    agreement_uploaded: deal.agreementUploadedAt !== null,
    agreement_uploaded_at: deal.agreementUploadedAt,
    signed: deal.signedAt !== null,
    signed_at: deal.signedAt,
    signature_verification: deal.signatureVerification,
  };
}

/** One market object per country, `country` first as the discriminator; the register facts ride in it. */
export function marketObject(deal: Pick<Deal, "subject">, files: DealFiles = NO_FILES, register: DealRegister = NO_REGISTER) {
  const market = marketFor(deal.subject.country);
  const f = dealFigures(deal, market, files, register);
  const b = deal.subject.business ?? {};
  const base = {
    country: market.code,
    currency: market.currency,
    ...figureFields(f),
    registry: register.answers.registry,
    identifiers: identifiersFor(market, register.answers.registry),
  };
  const vat = market.vat_checked ? { vat: vatView(b.vat?.number, register.answers.vat) } : {};
  switch (market.block) {
    case "uk":
      return {
        ...base,
        company_register_number: orNull(b.company_number),
        entity_type: orNull(b.entity_type),
        significant_persons: deal.subject.significantPersons.map(personView),
        ...vat,
      };
    case "us":
      return { ...base, region: null, credit_score_band: f.credit_score_band, ein: null, signup_ip: null };
    case "ca":
      return { ...base, region: null, credit_score_band: f.credit_score_band };
    default:
      return {
        ...base,
        region: null,
        ...(market.register_number_label !== null ? { company_number: orNull(b.company_number) } : {}),
        ...vat,
      };
  }
}

/** `statementsAvailable`: the list query's answer to whether the lender can read a parsed statement. */
export function dealSummary(deal: Deal & { statementsAvailable?: boolean }) {
  const market = marketFor(deal.subject.country);
  const s = deal.subject;
  return {
    ref: deal.ref,
    business: {
      name: orNull(s.business?.name),
      ...(market.register_number_label !== null ? { company_number: orNull(s.business?.company_number) } : {}),
    },
    contact: { first_name: orNull(s.contact?.first_name), last_name: orNull(s.contact?.last_name) },
    // No basis field here, so only a reported amount: a band's midpoint would pass for one.
    amount: orNull(s.funding?.amount),
    currency: market.currency,
    product: orNull(s.funding?.product_family),
    market: market.code,
    status: deal.status,
    lender_status: deal.lenderStatus,
    test: deal.test,
    statements_available: deal.statementsAvailable ?? false,
    created_at: deal.createdAt,
    updated_at: deal.updatedAt,
  };
}

/** The evidence of the commission disclosure shown to the business about this deal's offers (issue 43), oldest first. */
export interface DisclosureEvidence {
  offer_id: string;
  what: "nature" | "amount";
  channel: "hub" | "application_link";
  disclosure_version: string;
  text: string;
  amount: number | null;
  currency: string;
  shown_at: string;
}

export function dealView(deal: Deal, offers: readonly Offer[], files: DealFiles = NO_FILES, register: DealRegister = NO_REGISTER, disclosures: readonly DisclosureEvidence[] = []) {
  const market = marketFor(deal.subject.country);
  const f = dealFigures(deal, market, files, register);
  const s = deal.subject;
  const marketView = marketObject(deal, files, register);
  return {
    ref: deal.ref,
    environment: deal.environment,
    test: deal.test,
    status: deal.status,
    lender_status: deal.lenderStatus,
    status_reason: deal.statusReason,
    decline_reasons: deal.declineReasons.map(lenderReasonView),
    funded_amount: deal.fundedAmount,
    channel: { name: orNull(s.channel?.name), domain: orNull(s.channel?.domain) },
    business: {
      name: orNull(s.business?.name),
      ...(market.register_number_label !== null ? { company_number: orNull(s.business?.company_number) } : {}),
      entity_type: orNull(s.business?.entity_type),
      industry: orNull(s.business?.industry),
    },
    contact: contactView(s.contact),
    request: {
      amount: f.amount,
      amount_basis: f.amount_basis,
      amount_band: f.amount_band,
      currency: market.currency,
      purpose: orNull(s.funding?.purpose),
      product_family: orNull(s.funding?.product_family),
    },
    market: marketView,
    statements: statementSummary(files.stored),
    offers: offers.map(dealOfferView),
    documents: [...files.views],
    // The same consent and receipt the partner reads on the lead (issue 44).
    consent: consentView(s.consent),
    completion: completionView(deal),
    commission: {
      disclosures: [...disclosures],
      repayment_outcome: deal.repaymentOutcome ? { outcome: deal.repaymentOutcome, reported_at: deal.repaymentOutcomeAt! } : null,
    },
    created_at: deal.createdAt,
    updated_at: deal.updatedAt,
    // Deprecated duplicates of the market object, kept for one release (header `Deprecation`).
    monthly_revenue: marketView.monthly_revenue,
    annual_turnover: marketView.annual_turnover,
    market_block: marketView,
    market_region: "region" in marketView ? marketView.region : null,
  };
}

export type DealView = ReturnType<typeof dealView>;
export type DealSummaryView = ReturnType<typeof dealSummary>;
