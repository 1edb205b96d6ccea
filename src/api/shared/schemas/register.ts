/**
 * The register objects as the API describes them: `business.registry` and
 * `business.vat` on a partner Lead, and `market.registry` / `market.vat` on a
 * lender's deal. One description of the shape in src/domain/registers/types.ts.
 */
import { z } from "@hono/zod-openapi";
import type { RegistryUnavailableReason } from "../../../domain/registers/types";
import { Timestamp } from "./common";

const str = z.string().nullable();
const num = z.number().nullable();
const int = z.number().int().nullable();
const date = z.string().nullable().openapi({ format: "date", example: "2019-03-14" });

const UNAVAILABLE_REASONS = ["not_found", "timeout", "unavailable", "not_configured", "not_available_in_state", "rate_limited"] as const satisfies readonly RegistryUnavailableReason[];
// Fails to compile when the domain type gains a reason this list lacks.
type MissingReason = Exclude<RegistryUnavailableReason, (typeof UNAVAILABLE_REASONS)[number]>;
const everyReasonListed: MissingReason extends never ? true : false = true;
void everyReasonListed;

const Address = z
  .object({ line1: str, line2: str, locality: str, region: str, postal_code: str, country: str })
  .openapi("RegisteredOffice", { description: "The registered office as the register holds it." });

/** KRS masks natural persons' names: such a person is listed with `name: null` and `name_masked: true`. */
const personName = z.string().nullable().openapi({ description: "Null when the register masks the name (`name_masked` is then true)." });
const nameMasked = z.literal(true).optional().openapi({ description: "Present (true) when the register publishes the person but masks the name." });

const Director = z
  .object({
    name: personName,
    name_masked: nameMasked,
    role: str,
    appointed_on: date,
    resigned_on: date,
    other_active_appointments: int.openapi({ description: "Other companies where the person is an active officer." }),
    other_resigned_appointments: int,
    dissolved_companies: int.openapi({ description: "Companies the person was an officer of that are now dissolved." }),
    disqualified: z.boolean().nullable().openapi({ description: "Whether the person appears on the register of disqualified directors; null when not checked." }),
  })
  .openapi("RegistryDirector");

const Due = z.object({ next_due: date, overdue: z.boolean().nullable() });

const FiledFinancials = z
  .object({
    period_start: date,
    period_end: date,
    turnover: num,
    gross_profit: num,
    operating_profit: num,
    profit_loss: num,
    equity: num,
    net_assets: num,
    net_current_assets: num,
    cash: num,
    current_liabilities: num,
    average_employees: num,
    accounts_type: str,
    basis: z.literal("filed_accounts"),
  })
  .openapi("FiledFinancials", { description: "The latest filed accounts, in the market currency. `turnover` is the figure behind `annual_turnover` with basis `filed_accounts`." });

export const RegistryAvailable = z
  .object({
    source: z.string().openapi({ example: "official_register" }),
    status: z.literal("available"),
    registered_name: str,
    incorporated_on: date.openapi({ description: "Incorporation date; `tib_months` (basis `register`) counts whole months from it." }),
    company_age_months: int.openapi({ description: "Whole months from incorporation to `checked_at`." }),
    company_status: str.openapi({ description: "The register's own status word, e.g. `active`, `dissolved`, `liquidation`. A company that is not active gets no options at submit.", example: "active" }),
    company_type: str.openapi({ example: "ltd" }),
    sic_codes: z.array(z.string()).nullable().openapi({ example: ["47910"] }),
    activity_codes: z.array(z.object({ scheme: z.string(), code: z.string(), description: str, classification: str })).nullable(),
    registered_office: Address.nullable(),
    directors: z.array(Director).nullable().openapi({ description: "Current directors with their appointments and disqualification." }),
    officers: z.array(z.object({ name: personName, name_masked: nameMasked, role: str, appointed_on: date, resigned_on: date })).nullable(),
    psc_count: int.openapi({ description: "Active persons with significant control." }),
    accounts: Due.nullable(),
    confirmation_statement: Due.nullable(),
    charges_count: int,
    has_insolvency_history: z.boolean().nullable(),
    filed_financials: FiledFinancials.nullable(),
    filings: z.array(z.object({ type: str, description: str, date: date, period_start: date, period_end: date })).nullable(),
    share_capital: z.object({ amount: z.number(), currency: z.string() }).nullable(),
    registers: z.array(z.string()).nullable(),
    exemptions: z.array(z.string()).nullable(),
    uk_establishments_count: int,
    disqualified_directors_count: int,
    identifiers: z
      .record(z.string(), z.string())
      .nullable()
      .openapi({ description: "Only the keys the market has: vat_number, lei, nip, krs, regon, nif, ein, business_number, state_entity_number, registry_sheet, siren, siret, abn; `state` in the US only.", example: { vat_number: "GB100000001" } }),
    business_description: str,
    sections: z
      .record(z.string(), z.object({ status: z.string(), data: z.unknown() }))
      .nullable()
      .openapi({ description: "Per part of the register (profile, officers, filing history…): whether it answered, and source-specific data." }),
    checked_at: Timestamp,
  })
  .openapi("RegistryAvailable", { description: "The register's answer. Every key is present; a fact the register does not hold is null." });

export const RegistryUnavailable = z
  .object({
    source: z.string().openapi({ example: "official_register" }),
    status: z.literal("unavailable"),
    reason: z.enum(UNAVAILABLE_REASONS).openapi({
      description:
        "`not_found`: the register does not know the number; `timeout`/`unavailable`/`rate_limited`: it did not answer (asked again on the retry schedule); `not_configured`: the live source has no credentials; `not_available_in_state`: a US state publishes no register data.",
    }),
  })
  .strict()
  .openapi("RegistryUnavailable", {
    description:
      "The register gave no facts, and why: exactly `source`, `status` and `reason`, whatever the reason (`not_found` included). When the register was last asked is shown to people in the portal, never as a key of this object.",
  });

export const Registry = z
  .discriminatedUnion("status", [RegistryAvailable, RegistryUnavailable])
  .nullable()
  .openapi("Registry", {
    description:
      "The company register's answer for `company_number`, looked up off the request path when the number is set or changes. Null until the answer for the number the lead holds is stored (and again at once when the number changes).",
  });

export const Vat = z
  .object({
    number: str,
    valid: z.boolean().nullable().openapi({ description: "Null until checked, or when the VAT register did not answer." }),
    checked_at: Timestamp.nullable(),
    source: z.string().nullable().openapi({ example: "vat_validation", description: "`vat_validation` once checked; null before." }),
    registered_name: str,
    registered_address: str,
    reason: str.openapi({ example: "no_number", description: "`no_number` when no number is held; `unavailable`, `timeout`, `rate_limited` or `not_configured` when the VAT register did not answer." }),
  })
  .openapi("Vat", { description: "The VAT register's check of `vat.number` (GB and the EU markets)." });
