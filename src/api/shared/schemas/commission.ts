/**
 * The introducer's commission as the APIs and the portal show it ([Commission](/docs/guides/commission)).
 * Money is integer minor units of `currency` everywhere here (the ledger never holds a float).
 */
import { z } from "@hono/zod-openapi";
import { isMonth } from "../../../domain/commission/month";
import { CURRENCIES } from "../../../domain/reference/values";
import { REPAYMENT_OUTCOMES } from "../../../domain/deals/types";
import { ListLimit, PlainText, Timestamp } from "./common";

const Minor = (description: string) => z.number().int().openapi({ description });
const nullableMinor = (description: string) => z.number().int().nullable().openapi({ description });
const EntryKind = z.enum(["accrued", "paid", "clawed_back"]).openapi({
  description: "`accrued` when the deal funded (+), `paid` when the introducer was paid (−), `clawed_back` when the deal settled early or defaulted within `clawback_days` (−).",
});
const CurrencyCode = z.enum(CURRENCIES.map((c) => c.value) as [string, ...string[]]);

export const Month = z
  .string()
  .refine(isMonth, { message: "A month is YYYY-MM (e.g. 2026-11)." })
  .openapi({ example: "2026-11", description: "A calendar month in UTC, `YYYY-MM`." });

const entryCore = {
  id: z.string().openapi({ example: "cme_k3m9q7x2p4w8r6t1y5u0" }),
  kind: EntryKind,
  amount: Minor("Minor units; positive for `accrued`, negative for `paid` and `clawed_back`. The sum of a deal's entries is what is still owed on it."),
  currency: z.string().openapi({ example: "GBP" }),
  funded_amount: nullableMinor("The deal's funded amount, minor units."),
  payment_reference: z.string().nullable().openapi({ description: "With `paid`: the operator's payment reference." }),
  reason: z.string().nullable().openapi({ description: "With `clawed_back`: `settled_early` or `defaulted`." }),
  accrued_entry_id: z.string().nullable().openapi({ description: "With `paid` and `clawed_back`: the accrual they follow." }),
  month: Month,
  created_at: Timestamp,
};

/** The partner's entry: the option's product family, never the lender. */
export const CommissionEntry = z
  .object({ ...entryCore, lead_id: z.string(), product_family: z.string().nullable().openapi({ description: "The funded option's product family (the lender is never named)." }) })
  .openapi("CommissionEntry");

const LenderCommissionEntry = z
  .object({
    ...entryCore,
    deal_ref: z.string().nullable(),
    product_id: z.string(),
    basis: z.enum(["percentage", "flat"]),
    rate_bps: z.number().int().nullable(),
    clawback_days: z.number().int(),
  })
  .openapi("LenderCommissionEntry");

export const OperatorCommissionEntry = LenderCommissionEntry.extend({
  environment: z.enum(["sandbox", "live"]),
  partner_organisation_id: z.string(),
  lender_organisation_id: z.string(),
  lead_id: z.string(),
  product_family: z.string().nullable(),
  terms_id: z.string(),
}).openapi("OperatorCommissionEntry");

export const CommissionQuery = z.object({
  state: EntryKind.optional().openapi({ description: "Only entries of this kind." }),
  month: Month.optional().openapi({ description: "Only entries written in this month (UTC)." }),
  cursor: z.string().max(1000).optional().openapi({ description: "The `next_cursor` of the previous page (valid only with the same filters)." }),
  limit: ListLimit,
});

const listOf = <T extends z.ZodType>(entry: T, name: string) => z.object({ commissions: z.array(entry), next_cursor: z.string().nullable() }).openapi(name);
export const CommissionList = listOf(CommissionEntry, "CommissionList");
export const LenderCommissionList = listOf(LenderCommissionEntry, "LenderCommissionList");
export const OperatorCommissionList = listOf(OperatorCommissionEntry, "OperatorCommissionList");

const totals = {
  currency: z.string(),
  accrued: Minor("Sum of the accrued entries."),
  paid: Minor("Sum of the paid entries (negative)."),
  clawed_back: Minor("Sum of the clawed-back entries (negative)."),
  net: Minor("accrued + paid + clawed_back: equals the sum of the entries' amounts."),
};
const StatementTotal = z.object(totals).openapi("CommissionStatementTotal");

export const CommissionStatement = z
  .object({
    month: Month,
    from: Timestamp.openapi({ description: "The month's first instant (UTC), inclusive." }),
    until: Timestamp.openapi({ description: "The next month's first instant, exclusive." }),
    environment: z.enum(["sandbox", "live"]),
    totals: z.array(StatementTotal).openapi({ description: "One per currency. Each `net` is the sum of that currency's entries, and of the CSV's entry lines." }),
    entries: z.array(CommissionEntry).openapi({ description: "Oldest first." }),
  })
  .openapi("CommissionStatement");

export const MonthParam = z.object({ month: Month.openapi({ param: { name: "month", in: "path" } }) });

export const OperatorTotals = z
  .object({
    environment: z.enum(["sandbox", "live"]),
    totals: z.array(z.object({ partner_organisation_id: z.string(), month: Month, ...totals, entries: z.number().int() })),
  })
  .openapi("CommissionTotals");

export const TermsBody = z
  .strictObject({
    partner_organisation_id: z.string().max(64).nullable().default(null).openapi({ description: "The partner these terms are for; null (or absent) for the product's default." }),
    currency: CurrencyCode.openapi({ description: "The market currency the amounts are in; terms apply to deals in this currency." }),
    basis: z.enum(["percentage", "flat"]),
    rate_bps: z.number().int().min(1).max(10_000).nullable().default(null).openapi({ description: "With `percentage`: basis points of the funded amount (150 = 1.5%)." }),
    flat_amount: z.number().int().min(0).max(1_000_000_000_00).nullable().default(null).openapi({ description: "With `flat`: minor units." }),
    min_amount: z.number().int().min(0).max(1_000_000_000_00).nullable().default(null).openapi({ description: "Minor units; the commission is at least this." }),
    max_amount: z.number().int().min(0).max(1_000_000_000_00).nullable().default(null).openapi({ description: "Minor units; the commission is at most this." }),
    clawback_days: z.number().int().min(0).max(3650).openapi({ description: "Early settlement or default reported within this many days of funding claws the commission back." }),
  })
  .openapi("CommissionTermsChange");

export const Terms = z
  .object({
    id: z.string(),
    lender_organisation_id: z.string(),
    product_id: z.string(),
    partner_organisation_id: z.string().nullable(),
    currency: z.string(),
    basis: z.enum(["percentage", "flat"]),
    rate_bps: z.number().int().nullable(),
    flat_amount: z.number().int().nullable(),
    min_amount: z.number().int().nullable(),
    max_amount: z.number().int().nullable(),
    clawback_days: z.number().int(),
    effective_at: Timestamp.openapi({ description: "When the change took effect; a deal is priced by the terms in force when its offer was accepted." }),
    in_force: z.boolean().openapi({ description: "True for the change in force now for its partner (or default) and currency." }),
  })
  .openapi("CommissionTerms");

export const PaymentBody = z.strictObject({ payment_reference: PlainText(140, { min: 1 }).openapi({ example: "BACS-2026-11-0042" }) });

export const RepaymentOutcomeBody = z
  .strictObject({ outcome: z.enum(["settled_early", "defaulted"]).openapi({ description: "The funded deal was repaid early in full, or defaulted." }) })
  .openapi("RepaymentOutcomeReport");

export const CommissionDisclosureEvidence = z
  .object({
    offer_id: z.string(),
    what: z.enum(["nature", "amount"]).openapi({ description: "`nature`: that commission may be paid and of what kind; `amount`: how much (the business asked)." }),
    channel: z.enum(["hub", "application_link"]),
    disclosure_version: z.string().openapi({ description: "Names the wording shown." }),
    text: z.string().openapi({ description: "The sentence the business read, exactly." }),
    amount: z.number().int().nullable().openapi({ description: "With `amount`: minor units." }),
    currency: z.string(),
    shown_at: Timestamp,
  })
  .openapi("CommissionDisclosureEvidence");
