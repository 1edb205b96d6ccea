/**
 * The lead as the partner API answers it. Pure, so the lender deal view and
 * webhook payloads build from the same function. Unknown rule: every key the
 * spec lists is present and null when the service does not hold it; keys the
 * market does not have are absent.
 */
import type { Unlock } from "../panel/unlocks";
import type { Need } from "../panel/requirements";
import { amountFields, figureFields, resolveFigures, type RegisterFigures, type ResolvedFigures, type StatementFigures } from "../figures";
import { marketFor, type Market } from "../reference/markets";
import { missingForSubmit } from "./submission";
import { statementFigures, statementSummary } from "../documents/statements";
import type { StoredDocument } from "../documents/types";
import { leadDocumentView } from "../documents/view";
import type { Lead, PartnerOutcome, RenewalSummary } from "./types";
import { contactView, personView } from "./person-view";
import { consentView } from "./consent";
import { orNull } from "../../lib/nullable";
import { NOTHING_HELD, type RegisterHolding } from "../registers/facts";
import { vatView } from "../registers/vat-view";

export interface LeadSteps {
  organisation_details_complete: boolean;
  significant_persons_complete: boolean;
  documents_complete: boolean;
  offer_step_complete: boolean;
}

const AFTER_ACCEPTANCE = new Set(["offer_accepted", "funded"]);

/** Steps follow from what the lead holds, never from a flag someone set. */
export function leadSteps(lead: Lead, market: Market = marketFor(lead.country), documentsHeld = 0): LeadSteps {
  return {
    organisation_details_complete: Boolean(lead.business?.name) && missingForSubmit(lead, market).length === 0,
    significant_persons_complete: lead.significantPersons.length > 0,
    documents_complete: documentsHeld > 0,
    offer_step_complete: AFTER_ACCEPTANCE.has(lead.state),
  };
}

function businessView(lead: Lead, market: Market, answers: RegisterHolding) {
  const b = lead.business ?? {};
  return {
    name: orNull(b.name),
    ...(market.register_number_label !== null ? { company_number: orNull(b.company_number) } : {}),
    entity_type: orNull(b.entity_type),
    industry: orNull(b.industry),
    // Null until the register's answer for the number the lead holds is stored.
    registry: answers.registry,
    ...(market.vat_checked ? { vat: vatView(b.vat?.number, answers.vat) } : {}),
  };
}

function tradingView(f: ResolvedFigures, market: Market) {
  return {
    ...figureFields(f),
    ...(takesCreditScore(market) ? { credit_score_band: f.credit_score_band } : {}),
  };
}

const takesCreditScore = (market: Market) => market.block === "us" || market.block === "ca";

/** The one market block a lead carries: `uk`, `us`, `ca` or `other`. */
function marketBlock(lead: Lead, market: Market, f: ResolvedFigures) {
  switch (market.block) {
    case "uk":
      return {
        uk: {
          company_register_number: orNull(lead.business?.company_number),
          entity_type: orNull(lead.business?.entity_type),
          annual_turnover: f.annual_turnover,
          significant_persons: lead.significantPersons.map(personView),
        },
      };
    case "us":
    case "ca": {
      const block = {
        region: null,
        monthly_revenue_band: f.monthly_revenue_band,
        monthly_revenue: f.monthly_revenue,
        monthly_revenue_basis: f.monthly_revenue_basis,
        time_in_business_band: f.time_in_business_band,
        tib_months: f.tib_months,
        credit_score_band: f.credit_score_band,
        currency: market.currency,
      };
      // `ein` and `signup_ip` exist only in the US; nothing collects them yet.
      return market.block === "us" ? { us: { ...block, ein: null, signup_ip: null } } : { ca: block };
    }
    default:
      return {
        other: {
          monthly_revenue_band: f.monthly_revenue_band,
          time_in_business_band: f.time_in_business_band,
          currency: market.currency,
        },
      };
  }
}

/**
 * What routing holds for a submitted lead (src/services/leads/offers.ts loads it). The offers come
 * already in the partner's shape (structural labels, no lender: domain/deals/offer-view.ts); the
 * lead view passes them through, so it takes their type as a parameter and needs nothing of deals/.
 */
export interface RoutingSources<OfferView> {
  /** Current offers, already in the partner's shape. */
  offers: OfferView[];
  fundingOutcome: { funded_at: string; funded_amount: number } | null;
  /** The matcher's reasons; shown for out-of-scope leads. */
  reasons: { code: string; detail: string }[];
  /** The lead has current offers and the business declined every one. */
  allOffersDeclined: boolean;
  /** What became of each routed option, anonymised (domain/deals/outcomes.ts builds them). */
  outcomes: readonly PartnerOutcome[];
  /** What would add options, on the options still open (domain/panel/unlocks.ts `outlookOnOpenOptions`). */
  unlocks: readonly Unlock[];
  /** What the application could add for more options: products' requirements it lacks (domain/panel/requirements.ts). */
  needs?: readonly Need[];
}

export interface ViewSources<OfferView = never> {
  /** The figures the precedence rule takes from the register (src/domain/registers/facts.ts). */
  register?: RegisterFigures | null;
  /** The stored register and VAT answers, shown as `business.registry` and `business.vat`. */
  registerAnswers?: RegisterHolding;
  statements?: StatementFigures | null;
  routing?: RoutingSources<OfferView> | null;
  /** Every document of the lead (partner and client uploads). */
  documents?: readonly StoredDocument[];
  /** The lead's client hub link. */
  uploadUrl?: string | null;
  /** The renewals opened from this lead. */
  renewals?: readonly RenewalSummary[];
  /** When this lead's attribution of its company began, while it holds (a submitted lead only). */
  attributionSince?: string | null;
}

export function leadFigures<OfferView>(lead: Lead, market: Market, sources: ViewSources<OfferView> = {}) {
  return resolveFigures(
    { applicant: { ...lead.trading, ...lead.funding }, register: sources.register ?? null, statements: sources.statements ?? statementFigures(sources.documents ?? []) },
    market,
  );
}

/** What identifies a lead, first in both the full view and the list summary. */
const leadHeader = (lead: Lead, market: Market) => ({
  id: lead.id,
  reference: lead.reference,
  partner_reference: lead.partnerReference,
  state: lead.state,
  environment: lead.environment,
  country: market.code,
  currency: market.currency,
  renewal_of: lead.renewalOf,
});

export function leadView<OfferView = never>(lead: Lead, sources: ViewSources<OfferView> = {}) {
  const market = marketFor(lead.country);
  const f = leadFigures(lead, market, sources);
  return {
    ...leadHeader(lead, market),
    channel: { name: orNull(lead.channel?.name), domain: orNull(lead.channel?.domain) },
    business: businessView(lead, market, sources.registerAnswers ?? NOTHING_HELD),
    contact: contactView(lead.contact),
    funding: {
      ...amountFields(f),
      currency: market.currency,
      purpose: orNull(lead.funding?.purpose),
      product_family: orNull(lead.funding?.product_family),
    },
    trading: tradingView(f, market),
    consent: consentView(lead.consent),
    significant_persons: lead.significantPersons.map(personView),
    steps: leadSteps(lead, market, (sources.documents ?? []).filter((d) => d.state === "accepted").length),
    matched_options: lead.matchedOptions,
    options: lead.options,
    offers: sources.routing?.offers ?? [],
    // The business declined every current offer (the lender may still make new terms).
    all_offers_declined: sources.routing?.allOffersDeclined ?? false,
    documents: (sources.documents ?? []).map(leadDocumentView),
    statements: statementSummary(sources.documents ?? []),
    funding_outcome: sources.routing?.fundingOutcome ?? null,
    // Null until submitted; then one entry per routed option (none in the sandbox, where no lender sees the lead).
    outcomes: lead.submittedAt ? [...(sources.routing?.outcomes ?? [])] : null,
    // Null until submitted; then prequalification's unlocks, recomputed without the options a lender declined.
    unlocks: lead.submittedAt ? [...(sources.routing?.unlocks ?? [])] : null,
    // Null until submitted; then the requirements of options still open that the application lacks.
    needs: lead.submittedAt ? [...(sources.routing?.needs ?? [])] : null,
    // Null until submitted; the matcher's reasons once out of scope, else [].
    out_of_scope_reasons: lead.state === "out_of_scope" ? (sources.routing?.reasons ?? []) : lead.submittedAt ? [] : null,
    timeline: lead.timeline,
    upload_url: sources.uploadUrl ?? null,
    renewals: (sources.renewals ?? []).map((r) => ({ id: r.id, reference: r.reference, state: r.state, created_at: r.createdAt })),
    attribution: sources.attributionSince ? { since: sources.attributionSince } : null,
    submitted_at: lead.submittedAt,
    created_at: lead.createdAt,
    updated_at: lead.updatedAt,
    ...marketBlock(lead, market, f),
  };
}


/** `statementsAvailable`: the list query's answer to whether the lead has a parsed statement. */
export function leadSummary(lead: Lead & { statementsAvailable?: boolean }) {
  const market = marketFor(lead.country);
  return {
    ...leadHeader(lead, market),
    business: {
      name: orNull(lead.business?.name),
      ...(market.register_number_label !== null ? { company_number: orNull(lead.business?.company_number) } : {}),
    },
    contact: { first_name: orNull(lead.contact?.first_name), last_name: orNull(lead.contact?.last_name) },
    // The same figures as the read, through the same function: a band's midpoint says so in `amount_basis`.
    // The amount comes from the applicant alone, so the summary needs none of the read's other sources.
    funding: amountFields(leadFigures(lead, market)),
    statements_available: lead.statementsAvailable ?? false,
    created_at: lead.createdAt,
    updated_at: lead.updatedAt,
  };
}
