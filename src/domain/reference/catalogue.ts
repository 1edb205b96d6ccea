/**
 * The enum catalogue: every reference list the API serves, keyed by the name
 * `GET /enums/{name}` takes. Lists marked `per_country` differ by market and
 * need `country`.
 */
import { MARKETS, REFUSED_COUNTRIES, type Market } from "./markets";
import {
  COMPANY_TYPES,
  CREDIT_SCORE_BANDS,
  CURRENCIES,
  DECLINE_REASONS,
  OFFER_DECLINE_REASONS,
  DOCUMENT_REQUEST_STATUSES,
  DOCUMENT_STATES,
  DOCUMENT_TYPES,
  FUNDING_AMOUNT_BANDS,
  INDUSTRIES,
  LEAD_STATES,
  LENDER_EVENTS,
  PARTNER_EVENTS,
  PRODUCT_FAMILIES,
  PURPOSES,
  REQUEST_ITEM_TYPES,
  REQUIREMENT_FIELDS,
  REVENUE_BANDS,
  TIME_IN_BUSINESS_BANDS,
} from "./values";

export interface EnumEntry {
  value: string;
  label: string;
  [extra: string]: unknown;
}

interface EnumList {
  description: string;
  per_country: boolean;
  entries: (market: Market | null) => EnumEntry[];
}

const money = (bands: readonly { value: string; label: string; min: number; max: number | null }[]) =>
  (market: Market | null) =>
    bands.map((b) => ({ ...b, currency: market!.currency, midpoint: b.max === null ? null : (b.min + b.max) / 2 }));

export const ENUM_LISTS = {
  countries: {
    description: "Markets the service serves, with their metadata. Germany and Italy are refused.",
    per_country: false,
    entries: () => [
      ...MARKETS.map((m) => ({
        value: m.code,
        label: m.name,
        alpha2: m.country,
        alpha3: m.alpha3,
        currency: m.currency,
        local_currency: m.local_currency,
        instant_matching: m.instant_matching,
        launch: m.launch,
        supported: true,
        register_number_label: m.register_number_label,
        vat_checked: m.vat_checked,
        market_block: m.block,
        required_for_submit: m.required_for_submit,
      })),
      ...REFUSED_COUNTRIES.map((r) => ({ value: r.country, label: r.name, alpha2: r.country, alpha3: r.alpha3, supported: false })),
    ],
  },
  currencies: { description: "ISO 4217 currencies the markets use.", per_country: false, entries: () => [...CURRENCIES] },
  "company-types": {
    description: "Legal entity types of the market; the values `business.entity_type` accepts.",
    per_country: true,
    entries: (m) => [...(COMPANY_TYPES[m!.country] ?? [])],
  },
  industries: { description: "Industries; the values `business.industry` accepts.", per_country: false, entries: () => [...INDUSTRIES] },
  purposes: { description: "Funding purposes; the values `funding.purpose` accepts.", per_country: false, entries: () => [...PURPOSES] },
  "product-families": {
    description: "Structural funding product families.",
    per_country: false,
    entries: () => [...PRODUCT_FAMILIES],
  },
  "funding-amount-bands": {
    description: "Bands for `funding.amount_band`, bounded in the market currency (min inclusive, max exclusive).",
    per_country: true,
    entries: money(FUNDING_AMOUNT_BANDS),
  },
  "revenue-bands": {
    description: "Bands for `trading.monthly_revenue_band`, bounded in the market currency (min inclusive, max exclusive).",
    per_country: true,
    entries: money(REVENUE_BANDS),
  },
  "time-in-business-bands": {
    description: "Bands for `trading.time_in_business_band`, in months (min inclusive, max exclusive).",
    per_country: false,
    entries: () => [...TIME_IN_BUSINESS_BANDS],
  },
  "credit-score-bands": {
    description: "Bands for `trading.credit_score_band` (United States and Canada only).",
    per_country: false,
    entries: () => [...CREDIT_SCORE_BANDS],
  },
  "document-types": { description: "Types of document a lead can hold.", per_country: false, entries: () => [...DOCUMENT_TYPES] },
  "document-states": { description: "States of a document on a lead; a rejected document says why in `reason`.", per_country: false, entries: () => [...DOCUMENT_STATES] },
  "document-request-items": {
    description: "What a lender may ask the client for (`item_type`), with the document type the upload is filed under.",
    per_country: false,
    entries: () => [...REQUEST_ITEM_TYPES],
  },
  "document-request-statuses": { description: "Statuses of a lender's document request.", per_country: false, entries: () => [...DOCUMENT_REQUEST_STATUSES] },
  "decline-reasons": {
    description: "Why a lender declined: the codes of `reasons[].code` (POST /v1/deals/{ref}/status) and of a lead's `outcomes[].reasons`.",
    per_country: false,
    entries: () => [...DECLINE_REASONS],
  },
  "requirement-fields": {
    description: "What a panel product may require the application to hold (a product's `requires[].field`), as a lead's `needs[].fields` and requirement `unlocks` name them.",
    per_country: false,
    entries: () => [...REQUIREMENT_FIELDS],
  },
  "offer-decline-reasons": {
    description: "Why the business declined an offer: the `reason_code` of POST /leads/{id}/offers/{offerId}/decline.",
    per_country: false,
    entries: () => [...OFFER_DECLINE_REASONS],
  },
  "lead-states": { description: "States of a lead.", per_country: false, entries: () => [...LEAD_STATES] },
  "webhook-events": {
    description: "Webhook event names; `api` says which API's endpoints can subscribe to each.",
    per_country: false,
    entries: () => [
      ...PARTNER_EVENTS.map((e) => ({ ...e, api: "partner" })),
      ...LENDER_EVENTS.map((e) => ({ ...e, api: "lender" })),
    ],
  },
} satisfies Record<string, EnumList>;

export type EnumName = keyof typeof ENUM_LISTS;
export const ENUM_NAMES = Object.keys(ENUM_LISTS) as [EnumName, ...EnumName[]];
