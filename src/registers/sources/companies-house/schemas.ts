import { z } from "zod";

/**
 * The Companies House public data API's documented resources, as far as the
 * adapter reads them (developer.company-information.service.gov.uk, "API
 * specification"). Everything the register may leave out is optional; unknown
 * keys are dropped.
 */

const str = z.string().nullish();
const bool = z.boolean().nullish();
const int = z.number().int().nonnegative().nullish();

export const chAddress = z.object({
  premises: str,
  address_line_1: str,
  address_line_2: str,
  locality: str,
  region: str,
  postal_code: str,
  country: str,
  care_of: str,
  po_box: str,
});

const links = z.record(z.string(), z.unknown()).nullish();

export const companyProfile = z.object({
  company_name: z.string(),
  company_number: z.string(),
  company_status: str,
  company_status_detail: str,
  date_of_creation: str,
  date_of_cessation: str,
  type: str,
  jurisdiction: str,
  sic_codes: z.array(z.string()).nullish(),
  has_been_liquidated: bool,
  has_charges: bool,
  has_insolvency_history: bool,
  registered_office_address: chAddress.nullish(),
  accounts: z
    .object({
      next_due: str,
      overdue: bool,
      accounting_reference_date: z.object({ day: z.union([z.string(), z.number()]), month: z.union([z.string(), z.number()]) }).nullish(),
      last_accounts: z.object({ made_up_to: str, period_start_on: str, period_end_on: str, type: str }).nullish(),
      next_accounts: z.object({ due_on: str, overdue: bool, period_start_on: str, period_end_on: str }).nullish(),
    })
    .nullish(),
  confirmation_statement: z.object({ next_due: str, overdue: bool, last_made_up_to: str, next_made_up_to: str }).nullish(),
  previous_company_names: z.array(z.object({ name: z.string(), ceased_on: str, effective_from: str })).nullish(),
  links,
});
export type CompanyProfile = z.infer<typeof companyProfile>;

const partialDate = z.object({ month: z.number().int().nullish(), year: z.number().int().nullish(), day: z.number().int().nullish() });

export const officerList = z.object({
  active_count: int,
  resigned_count: int,
  inactive_count: int,
  total_results: int,
  items: z
    .array(
      z.object({
        name: z.string(),
        officer_role: str,
        appointed_on: str,
        appointed_before: str,
        resigned_on: str,
        date_of_birth: partialDate.nullish(),
        links: z.object({ officer: z.object({ appointments: str }).nullish() }).nullish(),
      }),
    )
    .default([]),
});
export type OfficerItem = z.infer<typeof officerList>["items"][number];

export const appointmentList = z.object({
  active_count: int,
  inactive_count: int,
  resigned_count: int,
  total_results: int,
  items: z
    .array(
      z.object({
        appointed_on: str,
        resigned_on: str,
        officer_role: str,
        appointed_to: z.object({ company_number: str, company_name: str, company_status: str }).nullish(),
      }),
    )
    .default([]),
});

export const pscList = z.object({
  active_count: int,
  ceased_count: int,
  total_results: int,
  items: z.array(z.object({ kind: str, ceased_on: str, ceased: bool })).default([]),
});

export const filingHistory = z.object({
  total_count: int,
  filing_history_status: str,
  items: z
    .array(
      z.object({
        type: str,
        category: str,
        description: str,
        date: str,
        description_values: z
          .object({
            made_up_date: str,
            // Live filing histories hold capital entries missing a figure or currency; they are kept here and dropped by shareCapitalOf.
            capital: z.array(z.object({ figure: z.union([z.string(), z.number()]).nullish(), currency: str, date: str }).passthrough()).nullish(),
          })
          .passthrough()
          .nullish(),
      }),
    )
    .default([]),
});
export type FilingItem = z.infer<typeof filingHistory>["items"][number];

export const chargeList = z.object({
  total_count: int,
  unfiltered_count: int,
  satisfied_count: int,
  part_satisfied_count: int,
  items: z.array(z.object({ status: str, classification: z.object({ type: str, description: str }).nullish(), created_on: str })).default([]),
});

export const insolvency = z.object({
  // The live resource answers an array ("status": ["liquidation"]); the published swagger says a string. Both are read.
  status: z.union([z.string(), z.array(z.string())]).nullish(),
  cases: z
    .array(z.object({ type: str, number: z.union([z.string(), z.number()]).nullish(), dates: z.array(z.object({ type: str, date: str })).nullish() }))
    .default([]),
});

export const registersResource = z.object({
  registers: z.record(z.string(), z.object({ register_type: str, items: z.array(z.object({ register_moved_to: str, moved_on: str })).default([]) })).default({}),
});

export const exemptionsResource = z.object({
  exemptions: z.record(z.string(), z.object({ exemption_type: str, items: z.array(z.object({ exempt_from: str, exempt_to: str })).default([]) })).default({}),
});

export const ukEstablishments = z.object({ items: z.array(z.unknown()).default([]) });

export const disqualifiedSearch = z.object({
  total_results: int,
  items: z
    .array(
      z.object({
        title: z.string(),
        date_of_birth: str,
        kind: str,
        links: z.object({ self: z.string() }),
      }),
    )
    .default([]),
});

export const disqualification = z.object({
  disqualifications: z.array(z.object({ disqualified_from: str, disqualified_until: str, disqualification_type: str })).default([]),
});
