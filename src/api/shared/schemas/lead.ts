import { z } from "@hono/zod-openapi";
import { Registry, Vat } from "./register";
import { dateOfBirthProblem, totalOwnershipProblem } from "../../../domain/leads/persons";
import {
  ALL_COMPANY_TYPE_VALUES,
  CREDIT_SCORE_BAND_VALUES,
  FUNDING_AMOUNT_BAND_VALUES,
  INDUSTRY_VALUES,
  LEAD_STATE_VALUES,
  PRODUCT_FAMILY_VALUES,
  PURPOSE_VALUES,
  REVENUE_BAND_VALUES,
  TIME_IN_BUSINESS_BAND_VALUES,
} from "../../../domain/reference/values";
import { CountryInput, ListLimit, PlainText, Timestamp } from "./common";
import { FORMULA_CELLS } from "./document";
import { NeedItem, UnlockItem } from "./unlock";
import { ConsentView } from "./consent";

// Request bodies are strict at every level: an unknown key is a 400 naming it.

/** Every text of a lead (names, references, numbers, address lines) is plain text on one line. */
const text = (max: number) => PlainText(max, { min: 1 });
const nameText = text;
/** Absent leaves a field as it is; null says it is not known (and clears it on PATCH). */
const maybe = <T extends z.ZodType>(schema: T) => schema.nullable().optional();
const Money = z.number().finite().nonnegative().max(1_000_000_000_000).openapi({ description: "Major units of the market currency." });

const ChannelInput = z.strictObject({ name: maybe(nameText(200)), domain: maybe(text(253)) });

const BusinessInput = z.strictObject({
  name: maybe(nameText(200)),
  company_number: maybe(text(50)).openapi({ description: "The local register number; refused in Spain, which has none." }),
  entity_type: maybe(z.enum(ALL_COMPANY_TYPE_VALUES)).openapi({ description: "One of the market's company types (`/enums/company-types?country=`)." }),
  industry: maybe(z.enum(INDUSTRY_VALUES)),
  vat: maybe(z.strictObject({ number: maybe(text(32)) })).openapi({ description: "Only in markets where a VAT register is checked." }),
});

const ContactInput = z.strictObject({
  first_name: maybe(nameText(100)),
  last_name: maybe(nameText(100)),
  email: maybe(z.email().max(254)),
  phone: maybe(z.string().trim().regex(/^\+?[0-9 ()./-]{4,32}$/, "must be a phone number (digits, spaces, + ( ) . - /; 4 to 32 characters)")),
});

const FundingInput = z.strictObject({
  amount: maybe(Money),
  amount_band: maybe(z.enum(FUNDING_AMOUNT_BAND_VALUES)),
  purpose: maybe(z.enum(PURPOSE_VALUES)),
  product_family: maybe(z.enum(PRODUCT_FAMILY_VALUES)),
});

const TradingInput = z.strictObject({
  monthly_revenue: maybe(Money),
  monthly_revenue_band: maybe(z.enum(REVENUE_BAND_VALUES)),
  annual_turnover: maybe(Money),
  tib_months: maybe(z.number().int().nonnegative().max(1200)),
  time_in_business_band: maybe(z.enum(TIME_IN_BUSINESS_BAND_VALUES)),
  credit_score_band: maybe(z.enum(CREDIT_SCORE_BAND_VALUES)).openapi({ description: "US and Canada only." }),
});

const ConsentInput = z.strictObject({
  obtained: maybe(z.boolean()),
  obtained_at: maybe(z.iso.datetime({ offset: true })),
  soft_credit_search: maybe(z.boolean()),
  text_version: maybe(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "a consent text version such as 2026-11")).openapi({
    description: "The consent text version the applicant agreed to (`GET /partner/v1/consent-texts/{version}`); with `obtained: true` the service writes `consent.receipt` (channel `partner_api`). Not a published version: 422 `unknown_code`.",
  }),
});

const DateOfBirth = z
  .string()
  .superRefine((value, ctx) => {
    const problem = dateOfBirthProblem(value, new Date());
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .openapi({ format: "date", example: "1984-03-09" });

export const SignificantPersonInput = z
  .strictObject({
    full_name: nameText(200),
    date_of_birth: DateOfBirth,
    residential_address: z.strictObject({
      line1: text(200),
      line2: maybe(text(200)),
      city: maybe(text(100)),
      region: maybe(text(100)),
      postal_code: text(20),
      country: maybe(text(64)),
    }),
    residency_status: maybe(text(50)).openapi({ example: "homeowner" }),
    ownership_percent: maybe(z.number().finite().min(0).max(100)),
    guarantee: maybe(z.boolean()).openapi({
      description: "True when the person offers a personal guarantee for the funding; some products require one ([Requirements](/docs/guides/matcher#requirements)).",
      example: true,
    }),
  })
  .openapi("SignificantPersonInput");

export const SignificantPersonsInput = z
  .array(SignificantPersonInput)
  .max(25)
  .superRefine((persons, ctx) => {
    const problem = totalOwnershipProblem(persons);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

const writableParts = {
  partner_reference: maybe(text(100)),
  channel: maybe(ChannelInput),
  business: maybe(BusinessInput),
  contact: maybe(ContactInput),
  funding: maybe(FundingInput),
  trading: maybe(TradingInput),
  consent: maybe(ConsentInput),
  significant_persons: maybe(SignificantPersonsInput),
};

export const LeadCreate = z.strictObject({ country: CountryInput, ...writableParts }).openapi("LeadCreate");
export const LeadPatch = z
  .strictObject({ country: CountryInput.optional(), ...writableParts })
  .openapi("LeadPatch", { description: "Any subset of the creation body. Nested objects merge key by key; `null` clears a key." });
export const SignificantPersonsPut = z.strictObject({ significant_persons: SignificantPersonsInput }).openapi("SignificantPersonsPut");

// Responses

const nullableString = z.string().nullable();
const nullableNumber = z.number().nullable();
const Basis = z
  .enum(["statements", "register", "filed_accounts", "applicant", "band_midpoint", "band_lower_bound"])
  .nullable()
  .openapi({ description: "Where the figure comes from; `band_midpoint`/`band_lower_bound` mean it stands for a band, not a reported number." });

export const SignificantPerson = z
  .object({
    full_name: z.string(),
    date_of_birth: z.string().openapi({ format: "date" }),
    residential_address: z.object({
      line1: z.string(),
      line2: nullableString,
      city: nullableString,
      region: nullableString,
      postal_code: z.string(),
      country: nullableString,
    }),
    residency_status: nullableString,
    ownership_percent: nullableNumber,
    guarantee: z.boolean().nullable().openapi({ description: "True when the person offers a personal guarantee; null when not said." }),
  })
  .openapi("SignificantPerson");

export const LeadSteps = z
  .object({
    organisation_details_complete: z.boolean(),
    significant_persons_complete: z.boolean(),
    documents_complete: z.boolean(),
    offer_step_complete: z.boolean(),
  })
  .openapi("LeadSteps");

export const LeadOption = z.object({ product_family: z.string(), label: z.string(), options: z.number().int() }).openapi("LeadOption");

export const LeadOutcome = z
  .object({
    option: z.string().openapi({ example: "Option 2", description: "The routed option, numbered in routing order; never a provider's name." }),
    product_family: z.string().nullable().openapi({ example: "business_loan", description: "The product family the option was routed for (`product-families`)." }),
    outcome: z.enum(["pending", "in_review", "offer_made", "offer_accepted", "declined", "funded"]),
    reasons: z
      .array(
        z.object({
          code: z.string().openapi({ description: "A value of the `decline-reasons` enum list.", example: "trading_history_too_short" }),
          label: z.string().openapi({ example: "The business has not been trading long enough" }),
          detail: z.string().nullable().openapi({ description: "The lender's note, only when the lender shared it; else null." }),
        }),
      )
      .openapi({ description: "With `declined`: why, as codes with their labels (empty when the lender gave none); else empty." }),
    at: Timestamp.openapi({ description: "When the option reached this outcome (for `pending`, when it was routed)." }),
  })
  .openapi("LeadOutcome");

export const PartnerOffer = z
  .object({
    id: z.string(),
    label: z.string().openapi({ description: "Structural (product family or product), never a provider's name." }),
    state: z
      .enum(["presented", "accepted", "closed", "declined"])
      .openapi({ description: "`closed`: no longer acceptable (another offer was accepted, or the lead ended); `declined`: the business said no (see `declined`)." }),
    maturity: z.enum(["indicative", "firm"]),
    amount: z.number(),
    currency: z.string(),
    annual_rate_pct: nullableNumber,
    factor_rate: nullableNumber,
    term_months: z.number().int().nullable(),
    fees: nullableNumber,
    total_repayment: nullableNumber,
    expires_at: nullableString,
    created_at: z.string(),
    declined: z
      .object({ reason_code: z.string().openapi({ example: "found_elsewhere" }), label: z.string(), at: Timestamp })
      .nullable()
      .openapi({ description: "Null unless the business declined the offer: its `offer-decline-reasons` code, the label, and when." }),
  })
  .openapi("PartnerOffer");

const LeadDocument = z.object({
  id: z.string(),
  document_type: z.string(),
  filename: z.string(),
  byte_size: z.number().int(),
  state: z.string(),
  reason: nullableString,
  formula_cells: z.boolean().openapi({ description: FORMULA_CELLS }),
  received_at: z.string(),
});

const LeadState = z.enum(LEAD_STATE_VALUES);
const Environment = z.enum(["sandbox", "live"]);

/** The United States and Canada carry the same market keys; the United States adds its own. */
const NorthAmericaBlock = z.object({
  region: nullableString,
  monthly_revenue_band: nullableString,
  monthly_revenue: nullableNumber,
  monthly_revenue_basis: Basis,
  time_in_business_band: nullableString,
  tib_months: z.number().int().nullable(),
  credit_score_band: nullableString,
  currency: z.string(),
});

export const Lead = z
  .object({
    id: z.string().openapi({ format: "uuid" }),
    reference: z.string().openapi({ example: "RF-7K3M9Q" }),
    partner_reference: nullableString,
    state: LeadState,
    environment: Environment,
    country: z.string().openapi({ description: "Market code (`UK` for the United Kingdom).", example: "UK" }),
    currency: z.string().openapi({ example: "GBP" }),
    channel: z.object({ name: nullableString, domain: nullableString }),
    business: z.object({
      name: nullableString,
      company_number: nullableString.optional().openapi({ description: "Absent in Spain, which has no company number." }),
      entity_type: nullableString,
      industry: nullableString,
      registry: Registry,
      vat: Vat.optional().openapi({ description: "Only where a VAT register is checked." }),
    }),
    contact: z.object({ first_name: nullableString, last_name: nullableString, email: nullableString, phone: nullableString }),
    funding: z.object({
      amount: nullableNumber,
      amount_band: nullableString,
      amount_basis: Basis,
      currency: z.string(),
      purpose: nullableString,
      product_family: nullableString,
    }),
    trading: z.object({
      monthly_revenue: nullableNumber,
      monthly_revenue_band: nullableString,
      monthly_revenue_basis: Basis,
      annual_turnover: nullableNumber,
      annual_turnover_basis: Basis,
      time_in_business_band: nullableString,
      tib_months: z.number().int().nullable(),
      tib_months_basis: Basis,
      credit_score_band: nullableString.optional().openapi({ description: "US and Canada only." }),
    }),
    consent: ConsentView,
    significant_persons: z.array(SignificantPerson),
    steps: LeadSteps,
    matched_options: z.number().int().nullable().openapi({ description: "Null until submitted." }),
    options: z.array(LeadOption).nullable().openapi({ description: "Null until submitted." }),
    offers: z.array(PartnerOffer),
    all_offers_declined: z.boolean().openapi({ description: "True when the lead has current offers and the business declined every one (the lender may still make new terms)." }),
    documents: z.array(LeadDocument),
    statements: z.object({ has_statements: z.boolean(), uploaded_at: nullableString, account_kind: nullableString }),
    funding_outcome: z.object({ funded_at: z.string(), funded_amount: z.number() }).nullable(),
    outcomes: z
      .array(LeadOutcome)
      .nullable()
      .openapi({ description: "Null until submitted; then what became of each routed option, anonymised (no provider, no lender note unless shared). Empty in the sandbox and when out of scope." }),
    unlocks: z
      .array(UnlockItem)
      .nullable()
      .openapi({
        description:
          "Null until submitted; then prequalification's unlocks recomputed on the options still open to the lead (the panel without the products of every lender that declined it), after each decline: e.g. `{field: \"trading.tib_months\", needed: 12, options_added: 1}` reads \"with 12 months of trading: 1 more option\". Never a provider's name.",
      }),
    needs: z
      .array(NeedItem)
      .nullable()
      .openapi({
        description:
          "Null until submitted; then what the application could add for more options: the requirements of panel products still open to the lead that it does not hold, grouped, e.g. `{fields: [\"significant_persons[].guarantee\"], options_added: 1}` ([Requirements](/docs/guides/matcher#requirements)). A requirement a lead lacks kept it from that product at submit. Never a provider's name.",
      }),
    out_of_scope_reasons: z
      .array(z.object({ code: z.string(), detail: z.string() }))
      .nullable()
      .openapi({
        description:
          "Null until submitted; the matcher's reasons when the lead is `out_of_scope`, else empty. `already_introduced`: another participant introduced the company first ([Attribution](/docs/guides/leads#attribution)); the lead was routed to no lender.",
      }),
    timeline: z.array(
      z.object({
        event: z.string(),
        occurred_at: Timestamp,
        reasons: z
          .array(z.object({ code: z.string(), detail: z.string() }))
          .optional()
          .openapi({ description: "On `lead.out_of_scope` only: the matcher's reasons (as `out_of_scope_reasons`), e.g. `company_not_active` when the company register says the company is not active." }),
      }),
    ),
    upload_url: nullableString.openapi({ description: "The client's link to the client hub; null until the hub exists." }),
    renewal_of: nullableString.openapi({ description: "The id of the funded lead this draft renews (POST /leads/{id}/renewals); null when not a renewal." }),
    renewals: z
      .array(z.object({ id: z.string(), reference: z.string(), state: LeadState, created_at: Timestamp }))
      .openapi({ description: "The renewals opened from this lead, oldest first; empty unless the lead is funded and was renewed." }),
    attribution: z
      .object({ since: Timestamp })
      .nullable()
      .openapi({
        description:
          "While this lead holds its company (it introduced it first: [Attribution](/docs/guides/leads#attribution)), since when; null otherwise (a draft, a lead that names no number, one ended without funding, past the window, released, or a lead of a company already introduced).",
      }),
    submitted_at: Timestamp.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
    uk: z
      .object({
        company_register_number: nullableString,
        entity_type: nullableString,
        annual_turnover: nullableNumber,
        significant_persons: z.array(SignificantPerson),
      })
      .optional()
      .openapi({ description: "United Kingdom leads only." }),
    us: NorthAmericaBlock.extend({ ein: nullableString, signup_ip: nullableString })
      .optional()
      .openapi({ description: "United States leads only." }),
    ca: NorthAmericaBlock.optional().openapi({ description: "Canada leads only." }),
    other: z
      .object({ monthly_revenue_band: nullableString, time_in_business_band: nullableString, currency: z.string() })
      .optional()
      .openapi({ description: "Leads of every other market." }),
  })
  .openapi("Lead");

export const LeadSummary = z
  .object({
    id: z.string(),
    reference: z.string(),
    partner_reference: nullableString,
    state: LeadState,
    environment: Environment,
    country: z.string(),
    currency: z.string(),
    business: z.object({ name: nullableString, company_number: nullableString.optional() }),
    contact: z.object({ first_name: nullableString, last_name: nullableString }),
    funding: z
      .object({ amount: nullableNumber, amount_band: nullableString, amount_basis: Basis })
      .openapi({ description: "The same figures as the lead's read: a band's midpoint (or lower bound) says so in `amount_basis`." }),
    renewal_of: nullableString.openapi({ description: "The id of the funded lead this draft renews; null when not a renewal." }),
    statements_available: z.boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("LeadSummary");

export const LeadList = z.object({ leads: z.array(LeadSummary), next_cursor: nullableString }).openapi("LeadList");

export const SignificantPersonsResult = z
  .object({ id: z.string(), significant_persons: z.array(SignificantPerson), steps: LeadSteps })
  .openapi("SignificantPersonsResult");

export const SubmitResult = z
  .object({
    id: z.string(),
    reference: z.string(),
    state: LeadState,
    matched_options: z.number().int(),
    options: z.array(LeadOption),
    already_submitted: z.boolean(),
    submitted_at: Timestamp,
    needs: z.array(NeedItem).openapi({
      description:
        "What the application could add for more options: requirements of panel products it does not hold (each kept the lead from that product), e.g. a personal guarantee or six months of bank statements; the same list as the lead's `needs` ([Requirements](/docs/guides/matcher#requirements)).",
    }),
  })
  .openapi("SubmitResult");

export const LeadQuery = z.object({
  state: LeadState.optional(),
  market: CountryInput.optional().openapi({ description: "GB, US, CA, AU, IE, ES, NL, BE, DK, SE, PL, FR; alpha-2, alpha-3 or name." }),
  cursor: z.string().max(1000).optional().openapi({ description: "The `next_cursor` of the previous page." }),
  limit: ListLimit,
});

export const LeadIdParam = z.object({ id: z.string().max(64).openapi({ param: { name: "id", in: "path" }, format: "uuid" }) });
