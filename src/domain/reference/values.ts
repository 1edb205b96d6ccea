/**
 * Reference values: the one source of truth for every enum the API accepts or
 * returns. Zod schemas, OpenAPI and `GET /enums/{name}` all read these arrays.
 */
import type { Market } from "./markets";

type Labelled<T extends string> = readonly { value: T; label: string }[];

const values = <T extends string>(list: Labelled<T>) => list.map((e) => e.value) as unknown as readonly [T, ...T[]];

export const INDUSTRIES = [
  { value: "agriculture", label: "Agriculture" },
  { value: "automotive", label: "Automotive sales and repair" },
  { value: "beauty_wellness", label: "Beauty and wellness" },
  { value: "construction", label: "Construction" },
  { value: "ecommerce", label: "E-commerce" },
  { value: "education", label: "Education and training" },
  { value: "financial_services", label: "Financial services" },
  { value: "gambling", label: "Gambling" },
  { value: "healthcare", label: "Healthcare" },
  { value: "hospitality", label: "Hospitality (restaurants, bars, hotels)" },
  { value: "manufacturing", label: "Manufacturing" },
  { value: "professional_services", label: "Professional services" },
  { value: "real_estate", label: "Real estate" },
  { value: "retail", label: "Retail" },
  { value: "technology", label: "Technology and software" },
  { value: "transport_logistics", label: "Transport and logistics" },
  { value: "wholesale", label: "Wholesale and distribution" },
  { value: "other", label: "Other" },
] as const;
export type Industry = (typeof INDUSTRIES)[number]["value"];
export const INDUSTRY_VALUES = values(INDUSTRIES);

export const PURPOSES = [
  { value: "working_capital", label: "Working capital" },
  { value: "cash_flow", label: "Cash flow" },
  { value: "stock_inventory", label: "Stock and inventory" },
  { value: "equipment", label: "Equipment" },
  { value: "vehicle", label: "Vehicles" },
  { value: "expansion", label: "Expansion" },
  { value: "refinancing", label: "Refinancing" },
  { value: "marketing", label: "Marketing" },
  { value: "hiring", label: "Hiring" },
  { value: "tax_bill", label: "Tax bill" },
  { value: "property", label: "Property purchase" },
  { value: "other", label: "Other" },
] as const;
export type Purpose = (typeof PURPOSES)[number]["value"];
export const PURPOSE_VALUES = values(PURPOSES);

export const PRODUCT_FAMILIES = [
  { value: "business_loan", label: "Business loan" },
  { value: "line_of_credit", label: "Line of credit" },
  { value: "merchant_cash_advance", label: "Merchant cash advance" },
  { value: "revenue_based_finance", label: "Revenue-based finance" },
  { value: "asset_finance", label: "Asset finance" },
  { value: "invoice_finance", label: "Invoice finance" },
  { value: "commercial_mortgage", label: "Commercial mortgage" },
] as const;
export type ProductFamily = (typeof PRODUCT_FAMILIES)[number]["value"];
export const PRODUCT_FAMILY_VALUES = values(PRODUCT_FAMILIES);

export const DOCUMENT_TYPES = [
  { value: "bank_statements", label: "Bank statements" },
  { value: "filed_accounts", label: "Filed accounts" },
  { value: "management_accounts", label: "Management accounts" },
  { value: "vat_returns", label: "VAT returns" },
  { value: "id_document", label: "Identity document" },
  { value: "proof_of_address", label: "Proof of address" },
  { value: "invoice", label: "Invoice or quote" },
  { value: "signed_agreement", label: "Signed agreement" },
  { value: "other", label: "Other" },
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number]["value"];
export const DOCUMENT_TYPE_VALUES = values(DOCUMENT_TYPES);

/** Document states: a document is decided when received (spec: "document state" read from the enum lists). */
export const DOCUMENT_STATES = [
  { value: "accepted", label: "Accepted: readable and of an allowed file type" },
  { value: "rejected", label: "Rejected: see `reason`" },
] as const;
export const DOCUMENT_STATE_VALUES = values(DOCUMENT_STATES);

/** Why a document was rejected. */
export const DOCUMENT_REJECTION_REASONS = [
  { value: "empty_file", label: "The file is empty" },
  { value: "unsupported_file_type", label: "The file type is not accepted for this document type" },
  { value: "unreadable_statement", label: "The bank statement could not be read as CSV or OFX" },
] as const;

/**
 * What a lender may ask the business for (`item_type` of POST /v1/deals/{ref}/requests),
 * each with the document type the upload is filed under and the label the client sees.
 */
export const REQUEST_ITEM_TYPES = [
  { value: "bank_statements_3m", label: "Bank statements for the last 3 months", document_type: "bank_statements" },
  { value: "bank_statements_6m", label: "Bank statements for the last 6 months", document_type: "bank_statements" },
  { value: "bank_statements_12m", label: "Bank statements for the last 12 months", document_type: "bank_statements" },
  { value: "filed_accounts", label: "Latest filed accounts", document_type: "filed_accounts" },
  { value: "management_accounts", label: "Current management accounts", document_type: "management_accounts" },
  { value: "vat_returns", label: "Recent VAT returns", document_type: "vat_returns" },
  { value: "id_document", label: "Identity document of a director or owner", document_type: "id_document" },
  { value: "proof_of_address", label: "Proof of business address", document_type: "proof_of_address" },
  { value: "invoice", label: "Invoice or quote for the purchase", document_type: "invoice" },
  { value: "other", label: "Another document (see the note)", document_type: "other" },
] as const;
export type RequestItemType = (typeof REQUEST_ITEM_TYPES)[number]["value"];
export const REQUEST_ITEM_TYPE_VALUES = values(REQUEST_ITEM_TYPES);

export const DOCUMENT_REQUEST_STATUSES = [
  { value: "requested", label: "Requested: waiting for the client" },
  { value: "uploaded", label: "Uploaded by the client" },
  { value: "forwarded", label: "Files handed to the lender" },
  { value: "waived", label: "Waived by the lender" },
] as const;

export const LEAD_STATES = [
  { value: "draft", label: "Draft: being filled in" },
  { value: "submitted", label: "Submitted: being matched" },
  { value: "matched", label: "Matched to funding options" },
  { value: "offers_available", label: "Offers available" },
  { value: "offer_accepted", label: "Offer accepted" },
  { value: "funded", label: "Funded" },
  { value: "declined", label: "Declined by every routed provider" },
  { value: "out_of_scope", label: "Out of scope: no funding option matched" },
] as const;
export type LeadState = (typeof LEAD_STATES)[number]["value"];
export const LEAD_STATE_VALUES = values(LEAD_STATES);

/**
 * Why a lender declined a deal (`reasons[].code` of POST /v1/deals/{ref}/status), in words an accountant
 * can act on. The partner reads the label, never the lender: the codes name no provider.
 */
export const DECLINE_REASONS = [
  { value: "trading_history_too_short", label: "The business has not been trading long enough" },
  { value: "revenue_below_minimum", label: "Revenue is below the minimum" },
  { value: "affordability", label: "The repayments do not look affordable" },
  { value: "adverse_credit", label: "Adverse credit history" },
  { value: "sector_not_funded", label: "The business's sector is not funded" },
  { value: "company_status", label: "The company's status at the register" },
  { value: "documents_incomplete", label: "Documents were missing or incomplete" },
  { value: "amount_outside_range", label: "The amount asked for is outside the range offered" },
  { value: "unable_to_verify", label: "The business's details could not be verified" },
  { value: "other", label: "Another reason" },
] as const;
export type DeclineReasonCode = (typeof DECLINE_REASONS)[number]["value"];
export const DECLINE_REASON_VALUES = values(DECLINE_REASONS);

/** Why the business declined an offer (POST /partner/v1/leads/{id}/offers/{offerId}/decline, the hub, the portal). */
/**
 * What a product can require, with the words a partner reads. A requirement is something the
 * application must provide, not a fact about the business: an application that has not provided
 * it does not hold it (the matcher's unknown rule is for facts such as revenue, which are what
 * they are whether or not the service knows them).
 */
export const REQUIREMENT_FIELDS = [
  { value: "business.company_number", label: "The company's registration number" },
  { value: "business.vat.number", label: "The business's VAT number" },
  { value: "contact.phone", label: "The contact's phone number" },
  { value: "significant_persons", label: "At least one significant person" },
  { value: "significant_persons[].guarantee", label: "A personal guarantee from a significant person" },
  { value: "statements.3_months", label: "Bank statements covering 3 months" },
  { value: "statements.6_months", label: "Bank statements covering 6 months" },
  { value: "statements.12_months", label: "Bank statements covering 12 months" },
] as const;
export type RequirementField = (typeof REQUIREMENT_FIELDS)[number]["value"];
export const REQUIREMENT_FIELD_VALUES = values(REQUIREMENT_FIELDS);

export const OFFER_DECLINE_REASONS = [
  { value: "found_elsewhere", label: "Found funding elsewhere" },
  { value: "terms_not_suitable", label: "The terms do not suit the business" },
  { value: "no_longer_needed", label: "The funding is no longer needed" },
  { value: "other", label: "Another reason" },
] as const;
export type OfferDeclineReason = (typeof OFFER_DECLINE_REASONS)[number]["value"];
export const OFFER_DECLINE_REASON_VALUES = values(OFFER_DECLINE_REASONS);

export const LENDER_STATUSES = ["new", "in_review", "offer_made", "declined", "funded"] as const;
export type LenderStatus = (typeof LENDER_STATUSES)[number];

export const PARTNER_EVENTS = [
  { value: "lead.submitted", label: "A lead was submitted" },
  { value: "lead.matched", label: "A lead matched at least one funding option" },
  { value: "lead.out_of_scope", label: "A lead matched no funding option" },
  { value: "lead.offers_available", label: "The first offer was presented on a lead" },
  { value: "lead.offer_accepted", label: "An offer on a lead was accepted" },
  { value: "lead.offer_declined", label: "The business declined an offer on a lead" },
  { value: "lead.funded", label: "A lead was funded" },
  { value: "lead.declined", label: "Every routed provider declined a lead" },
  { value: "lead.consent_captured", label: "The lead's consent was captured, with its receipt" },
  { value: "lead.consent_withdrawn", label: "The business withdrew its consent before submission" },
  { value: "lead.application_opened", label: "The business opened its application link" },
  { value: "lead.application_completed", label: "The business completed its application through the link" },
  { value: "document.accepted", label: "A document on a lead was accepted" },
  { value: "document.rejected", label: "A document on a lead was rejected" },
  { value: "document.removed", label: "A rejected document was removed from a lead" },
  { value: "commission.accrued", label: "Commission accrued on a funded lead" },
  { value: "commission.paid", label: "Commission on a lead was paid" },
  { value: "commission.clawed_back", label: "Commission on a lead was clawed back" },
] as const;
export const LENDER_EVENTS = [
  { value: "deal.created", label: "A deal was routed to the lender (test deals too)" },
  { value: "deal.updated", label: "A deal's status changed" },
  { value: "message.created", label: "The client sent a message" },
  { value: "request.fulfilled", label: "The client uploaded files against a document request" },
  { value: "document.removed", label: "The client removed a file it had sent against a document request" },
  { value: "offer.accepted", label: "An offer was accepted" },
  { value: "offer.declined", label: "The business declined an offer" },
  { value: "deal.account_submitted", label: "The client submitted its account details" },
  { value: "deal.agreement_signed", label: "The client signed the agreement" },
] as const;
export type LenderEvent = (typeof LENDER_EVENTS)[number]["value"];
export const PARTNER_EVENT_VALUES = values(PARTNER_EVENTS);
export const LENDER_EVENT_VALUES = values(LENDER_EVENTS);

export const CURRENCIES = [
  { value: "GBP", label: "Pound sterling" },
  { value: "USD", label: "US dollar" },
  { value: "CAD", label: "Canadian dollar" },
  { value: "AUD", label: "Australian dollar" },
  { value: "EUR", label: "Euro" },
  { value: "DKK", label: "Danish krone" },
  { value: "SEK", label: "Swedish krona" },
  { value: "PLN", label: "Polish złoty" },
] as const;

/** Ordered bands: order matters, the matcher compares positions. */
export interface Band<T extends string = string> {
  value: T;
  label: string;
  /** Inclusive lower bound. */
  min: number;
  /** Exclusive upper bound; null for the open top band. */
  max: number | null;
}

export const CREDIT_SCORE_BANDS = [
  { value: "below_500", label: "Below 500", min: 300, max: 500 },
  { value: "500_579", label: "500 to 579", min: 500, max: 580 },
  { value: "580_669", label: "580 to 669", min: 580, max: 670 },
  { value: "670_739", label: "670 to 739", min: 670, max: 740 },
  { value: "740_plus", label: "740 and above", min: 740, max: null },
] as const satisfies readonly Band[];
export type CreditScoreBand = (typeof CREDIT_SCORE_BANDS)[number]["value"];
export const CREDIT_SCORE_BAND_VALUES = values(CREDIT_SCORE_BANDS);

export const TIME_IN_BUSINESS_BANDS = [
  { value: "under_6m", label: "Under 6 months", min: 0, max: 6 },
  { value: "6m_12m", label: "6 to 12 months", min: 6, max: 12 },
  { value: "12m_24m", label: "1 to 2 years", min: 12, max: 24 },
  { value: "24m_60m", label: "2 to 5 years", min: 24, max: 60 },
  { value: "over_60m", label: "Over 5 years", min: 60, max: null },
] as const satisfies readonly Band[];
export const TIME_IN_BUSINESS_BAND_VALUES = values(TIME_IN_BUSINESS_BANDS);

/** Money bands: the codes are the same in every market, the bounds are in the market currency. */
export const REVENUE_BANDS = [
  { value: "under_10k", label: "Under 10,000", min: 0, max: 10_000 },
  { value: "10k_25k", label: "10,000 to 25,000", min: 10_000, max: 25_000 },
  { value: "25k_50k", label: "25,000 to 50,000", min: 25_000, max: 50_000 },
  { value: "50k_100k", label: "50,000 to 100,000", min: 50_000, max: 100_000 },
  { value: "100k_250k", label: "100,000 to 250,000", min: 100_000, max: 250_000 },
  { value: "over_250k", label: "Over 250,000", min: 250_000, max: null },
] as const satisfies readonly Band[];
export const REVENUE_BAND_VALUES = values(REVENUE_BANDS);

export const FUNDING_AMOUNT_BANDS = [
  { value: "under_25k", label: "Under 25,000", min: 1_000, max: 25_000 },
  { value: "25k_50k", label: "25,000 to 50,000", min: 25_000, max: 50_000 },
  { value: "50k_100k", label: "50,000 to 100,000", min: 50_000, max: 100_000 },
  { value: "100k_250k", label: "100,000 to 250,000", min: 100_000, max: 250_000 },
  { value: "250k_500k", label: "250,000 to 500,000", min: 250_000, max: 500_000 },
  { value: "over_500k", label: "Over 500,000", min: 500_000, max: null },
] as const satisfies readonly Band[];
export const FUNDING_AMOUNT_BAND_VALUES = values(FUNDING_AMOUNT_BANDS);

export const COMPANY_TYPES: Record<string, Labelled<string>> = {
  GB: [
    { value: "private_limited_company", label: "Private limited company (Ltd)" },
    { value: "public_limited_company", label: "Public limited company (plc)" },
    { value: "limited_liability_partnership", label: "Limited liability partnership (LLP)" },
    { value: "partnership", label: "Partnership" },
    { value: "sole_trader", label: "Sole trader" },
  ],
  US: [
    { value: "llc", label: "Limited liability company (LLC)" },
    { value: "c_corporation", label: "C corporation" },
    { value: "s_corporation", label: "S corporation" },
    { value: "partnership", label: "Partnership" },
    { value: "sole_proprietorship", label: "Sole proprietorship" },
  ],
  CA: [
    { value: "corporation", label: "Corporation" },
    { value: "partnership", label: "Partnership" },
    { value: "sole_proprietorship", label: "Sole proprietorship" },
  ],
  AU: [
    { value: "proprietary_limited_company", label: "Proprietary limited company (Pty Ltd)" },
    { value: "partnership", label: "Partnership" },
    { value: "sole_trader", label: "Sole trader" },
    { value: "trust", label: "Trust" },
  ],
  IE: [
    { value: "private_limited_company", label: "Private company limited by shares (LTD)" },
    { value: "designated_activity_company", label: "Designated activity company (DAC)" },
    { value: "partnership", label: "Partnership" },
    { value: "sole_trader", label: "Sole trader" },
  ],
  ES: [
    { value: "sociedad_limitada", label: "Sociedad limitada (SL)" },
    { value: "sociedad_anonima", label: "Sociedad anónima (SA)" },
    { value: "autonomo", label: "Autónomo" },
  ],
  NL: [
    { value: "besloten_vennootschap", label: "Besloten vennootschap (BV)" },
    { value: "eenmanszaak", label: "Eenmanszaak" },
    { value: "vennootschap_onder_firma", label: "Vennootschap onder firma (VOF)" },
  ],
  BE: [
    { value: "besloten_vennootschap", label: "Besloten vennootschap / société à responsabilité limitée (BV/SRL)" },
    { value: "naamloze_vennootschap", label: "Naamloze vennootschap / société anonyme (NV/SA)" },
    { value: "sole_trader", label: "Sole trader" },
  ],
  DK: [
    { value: "anpartsselskab", label: "Anpartsselskab (ApS)" },
    { value: "aktieselskab", label: "Aktieselskab (A/S)" },
    { value: "enkeltmandsvirksomhed", label: "Enkeltmandsvirksomhed" },
  ],
  SE: [
    { value: "aktiebolag", label: "Aktiebolag (AB)" },
    { value: "handelsbolag", label: "Handelsbolag (HB)" },
    { value: "enskild_firma", label: "Enskild firma" },
  ],
  PL: [
    { value: "spolka_z_oo", label: "Spółka z ograniczoną odpowiedzialnością (sp. z o.o.)" },
    { value: "spolka_akcyjna", label: "Spółka akcyjna (S.A.)" },
    { value: "jednoosobowa_dzialalnosc", label: "Jednoosobowa działalność gospodarcza" },
  ],
  FR: [
    { value: "sas", label: "Société par actions simplifiée (SAS)" },
    { value: "sarl", label: "Société à responsabilité limitée (SARL)" },
    { value: "sa", label: "Société anonyme (SA)" },
    { value: "entreprise_individuelle", label: "Entreprise individuelle" },
  ],
};

/** Every entity type of any market, for schemas that validate before the market is known. */
export const ALL_COMPANY_TYPE_VALUES = [...new Set(Object.values(COMPANY_TYPES).flat().map((e) => e.value))] as [
  string,
  ...string[],
];

export function companyTypesFor(market: Market) {
  return COMPANY_TYPES[market.country] ?? [];
}
