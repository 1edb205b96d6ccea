import { ConsentView } from "./consent";
import { z } from "@hono/zod-openapi";
import { CommissionDisclosureEvidence } from "./commission";
import { DEAL_STATUSES } from "../../../domain/deals/types";
import { MARKETS, type Market } from "../../../domain/reference/markets";
import { DECLINE_REASON_VALUES, LENDER_STATUSES } from "../../../domain/reference/values";
import { ListLimit, Timestamp } from "./common";
import { SignificantPerson } from "./lead";
import { Registry, Vat } from "./register";
import { DealDocument } from "./deal-document";

const nullableString = z.string().nullable();
const nullableNumber = z.number().nullable();
const Basis = z
  .enum(["statements", "register", "filed_accounts", "applicant", "band_midpoint", "band_lower_bound"])
  .nullable()
  .openapi({ description: "Where the figure comes from; `band_midpoint`/`band_lower_bound` mean it stands for a band, not a reported number." });

export const DealRefParam = z.object({
  ref: z.string().min(1).max(32).openapi({ param: { name: "ref", in: "path" }, example: "DL-7K3M9Q2A", description: "Case-insensitive deal reference." }),
});

const marketBase = {
  currency: z.string(),
  monthly_revenue: nullableNumber,
  monthly_revenue_band: nullableString,
  monthly_revenue_basis: Basis,
  annual_turnover: nullableNumber,
  annual_turnover_basis: Basis,
  time_in_business_band: nullableString,
  tib_months: z.number().int().nullable(),
  tib_months_basis: Basis,
  registry: Registry,
};

/** One schema per market: the common base plus the keys that market carries. */
function marketSchema(m: Market) {
  const identifiers = z.object(Object.fromEntries(m.identifier_keys.map((k) => [k, nullableString]))).openapi({ description: `Register identifiers ${m.name} has (from \`registry.identifiers\`); null until the register answers with one.` });
  const vat = m.vat_checked ? { vat: Vat } : {};
  const keys =
    m.block === "uk"
      ? { company_register_number: nullableString, entity_type: nullableString, significant_persons: z.array(SignificantPerson), ...vat }
      : m.block === "us"
        ? { region: nullableString, credit_score_band: nullableString, ein: nullableString, signup_ip: nullableString }
        : m.block === "ca"
          ? { region: nullableString, credit_score_band: nullableString }
          : { region: nullableString, ...(m.register_number_label !== null ? { company_number: nullableString } : {}), ...vat };
  return z.object({ country: z.literal(m.code), ...marketBase, identifiers, ...keys }).openapi(`DealMarket${m.code}`, { description: `The ${m.name} market object.` });
}

const marketSchemas = MARKETS.map(marketSchema);
export const DealMarket = z
  .discriminatedUnion("country", marketSchemas as unknown as [ReturnType<typeof marketSchema>, ...ReturnType<typeof marketSchema>[]])
  .openapi("DealMarket", { description: "One schema per country, `country` the discriminator." });

/** The business's "no" to an offer: its code from `offer-decline-reasons`, the label, and when. */
const OfferDeclined = z
  .object({ reason_code: z.string().openapi({ example: "found_elsewhere" }), label: z.string(), at: Timestamp })
  .nullable()
  .openapi("OfferDeclined", { description: "Null unless the business declined the offer." });

export const DealOffer = z
  .object({
    id: z.string(),
    amount: z.number(),
    currency: z.string(),
    kind: z.string(),
    maturity: z.enum(["indicative", "firm"]),
    status: z.enum(["presented", "accepted", "closed", "declined", "superseded"]).openapi({ description: "`declined`: the business said no (see `declined`)." }),
    created_at: Timestamp,
    superseded: z.boolean(),
    superseded_at: Timestamp.nullable(),
    superseded_by: z.enum(["indicative", "firm"]).nullable(),
    annual_rate_pct: nullableNumber,
    factor_rate: nullableNumber,
    term_months: z.number().int().nullable(),
    fees: nullableNumber,
    total_repayment: nullableNumber,
    expires_at: Timestamp.nullable(),
    notes: nullableString,
    declined: OfferDeclined,
  })
  .openapi("DealOffer");

export const Completion = z
  .object({
    account_submitted: z.boolean(),
    account_submitted_at: Timestamp.nullable(),
    account_summary: nullableString,
    agreement_uploaded: z.boolean(),
    agreement_uploaded_at: Timestamp.nullable(),
    signed: z.boolean(),
    signed_at: Timestamp.nullable(),
    signature_verification: nullableString,
  })
  .openapi("Completion");

const LenderStatus = z.enum(LENDER_STATUSES);
const DealStatus = z.enum(DEAL_STATUSES);

export const DealDeclineReason = z
  .object({
    code: z.string().openapi({ description: "A value of the `decline-reasons` enum list." }),
    label: z.string(),
    detail: nullableString.openapi({ description: "Your note; the partner reads it only when `shareable`." }),
    shareable: z.boolean(),
  })
  .openapi("DealDeclineReason");

export const DealSummary = z
  .object({
    ref: z.string().openapi({ example: "DL-7K3M9Q2A" }),
    business: z.object({ name: nullableString, company_number: nullableString.optional() }),
    contact: z.object({ first_name: nullableString, last_name: nullableString }),
    amount: nullableNumber.openapi({ description: "The amount the applicant reported; null when only a band is known (see the deal's `request`)." }),
    currency: z.string(),
    product: nullableString.openapi({ description: "Product family asked for." }),
    market: z.string().openapi({ example: "UK" }),
    status: DealStatus,
    lender_status: LenderStatus,
    test: z.boolean(),
    statements_available: z.boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("DealSummary");

export const DealList = z.object({ deals: z.array(DealSummary), next_cursor: nullableString }).openapi("DealList");

export const Deal = z
  .object({
    ref: z.string(),
    environment: z.enum(["sandbox", "live"]),
    test: z.boolean(),
    status: DealStatus,
    lender_status: LenderStatus,
    status_reason: nullableString.openapi({ description: "Deprecated with the `reason` it echoes: read `decline_reasons`." }),
    decline_reasons: z.array(DealDeclineReason).openapi({ description: "Why you declined, as codes; empty until declined (and when a decline gave no reason)." }),
    funded_amount: nullableNumber,
    channel: z.object({ name: nullableString, domain: nullableString }),
    business: z.object({ name: nullableString, company_number: nullableString.optional(), entity_type: nullableString, industry: nullableString }),
    contact: z.object({ first_name: nullableString, last_name: nullableString, email: nullableString, phone: nullableString }),
    request: z.object({
      amount: nullableNumber,
      amount_basis: Basis,
      amount_band: nullableString,
      currency: z.string(),
      purpose: nullableString,
      product_family: nullableString,
    }),
    market: DealMarket,
    statements: z.object({ has_statements: z.boolean(), uploaded_at: nullableString, account_kind: nullableString }),
    offers: z.array(DealOffer),
    documents: z.array(DealDocument).openapi({ description: "Signed links valid for 1 hour (24 hours in webhook bodies)." }),
    consent: ConsentView,
    completion: Completion,
    commission: z
      .object({
        disclosures: z.array(CommissionDisclosureEvidence).openapi({ description: "Every time the business was shown the commission disclosure for your offers on this deal (before it could accept; and the amount when it asked), oldest first: the evidence of CONC 4.5.3R/4.5.4R disclosure." }),
        repayment_outcome: z
          .object({ outcome: z.enum(["settled_early", "defaulted"]), reported_at: Timestamp })
          .nullable()
          .openapi({ description: "Your report of an early settlement or a default (`POST /deals/{ref}/repayment-outcome`); null until then." }),
      })
      .openapi({ description: "The introducer's commission on this deal: the disclosure evidence and any repayment outcome ([Commission](/docs/guides/commission))." }),
    created_at: Timestamp,
    updated_at: Timestamp,
    monthly_revenue: nullableNumber.openapi({ deprecated: true, description: "Deprecated: equals `market.monthly_revenue`." }),
    annual_turnover: nullableNumber.openapi({ deprecated: true, description: "Deprecated: equals `market.annual_turnover`." }),
    market_block: DealMarket.openapi({ deprecated: true, description: "Deprecated: equals `market`." }),
    market_region: nullableString.openapi({ deprecated: true, description: "Deprecated: equals `market.region` (null where the market has none)." }),
  })
  .openapi("Deal");

/** A comma-separated list of decline-reason codes, each checked against the list. */
export const DeclineReasonFilter = z
  .string()
  .max(1000)
  .transform((text, ctx) => {
    const codes = [...new Set(text.split(",").map((c) => c.trim()).filter((c) => c !== ""))];
    const unknown = codes.find((c) => !(DECLINE_REASON_VALUES as readonly string[]).includes(c));
    if (unknown !== undefined) ctx.addIssue({ code: "custom", message: `"${unknown}" is not a decline reason; one of: ${DECLINE_REASON_VALUES.join(", ")}` });
    return codes;
  })
  .openapi({ type: "string", description: "Only deals declined with at least one of these `decline-reasons` codes, comma-separated (`affordability,adverse_credit`).", example: "affordability,adverse_credit" });

export const DealQuery = z.object({
  status: LenderStatus.optional().openapi({ description: "Filter on the reported `lender_status`." }),
  reasons: DeclineReasonFilter.optional(),
  limit: ListLimit,
  cursor: z.string().max(1000).optional().openapi({ description: "The `next_cursor` of the previous page." }),
});

export const OfferList = z.object({ offers: z.array(DealOffer) }).openapi("DealOfferList");

export const Message = z
  .object({ id: z.string(), direction: z.enum(["lender_to_borrower", "borrower_to_lender"]), body: z.string(), created_at: Timestamp })
  .openapi("Message");
