/**
 * The shape every company-register and VAT adapter answers in: the spec's
 * `business.registry` and `business.vat` objects. Adapters (src/registers/)
 * turn each source's own response into these; everything after them
 * (storage, figures, the matcher, the lender's market object) reads only these.
 */

/** Why a register gave no facts. */
export type RegistryUnavailableReason =
  | "not_found"
  | "timeout"
  | "unavailable"
  | "not_configured"
  | "not_available_in_state"
  | "rate_limited";

/**
 * A register that gave no facts: exactly these three keys, whatever the reason
 * (`not_found` included). When it was last asked lives on the stored row
 * (`register_answers.checked_at`, `updated_at`), never in this object.
 */
export interface RegistryUnavailable {
  source: string;
  status: "unavailable";
  reason: RegistryUnavailableReason;
}


export interface RegistryAddress {
  line1: string | null;
  line2: string | null;
  locality: string | null;
  region: string | null;
  postal_code: string | null;
  country: string | null;
}

export interface RegistryDirector {
  /** Null when the register masks it (then `name_masked` is true). */
  name: string | null;
  /** Present and true when the register publishes the person but masks their name (KRS). */
  name_masked?: true;
  role: string | null;
  appointed_on: string | null;
  resigned_on: string | null;
  other_active_appointments: number | null;
  other_resigned_appointments: number | null;
  dissolved_companies: number | null;
  disqualified: boolean | null;
}

export interface RegistryFiledFinancials {
  period_start: string | null;
  period_end: string | null;
  turnover: number | null;
  gross_profit: number | null;
  operating_profit: number | null;
  profit_loss: number | null;
  equity: number | null;
  net_assets: number | null;
  net_current_assets: number | null;
  cash: number | null;
  current_liabilities: number | null;
  average_employees: number | null;
  accounts_type: string | null;
  basis: "filed_accounts";
}

/**
 * A register's answer. Every key is present; a fact the source does not hold
 * is null (the spec's unknown rule), never a default.
 */
export interface RegistryAvailable {
  source: string;
  status: "available";
  registered_name: string | null;
  incorporated_on: string | null;
  company_age_months: number | null;
  company_status: string | null;
  company_type: string | null;
  sic_codes: string[] | null;
  activity_codes: { scheme: string; code: string; description: string | null; classification: string | null }[] | null;
  registered_office: RegistryAddress | null;
  directors: RegistryDirector[] | null;
  officers: { name: string | null; name_masked?: true; role: string | null; appointed_on: string | null; resigned_on: string | null }[] | null;
  psc_count: number | null;
  accounts: { next_due: string | null; overdue: boolean | null } | null;
  confirmation_statement: { next_due: string | null; overdue: boolean | null } | null;
  charges_count: number | null;
  has_insolvency_history: boolean | null;
  filed_financials: RegistryFiledFinancials | null;
  filings: { type: string | null; description: string | null; date: string | null; period_start: string | null; period_end: string | null }[] | null;
  share_capital: { amount: number; currency: string } | null;
  registers: string[] | null;
  exemptions: string[] | null;
  uk_establishments_count: number | null;
  disqualified_directors_count: number | null;
  /** Only the keys the market has (Market.identifier_keys). */
  identifiers: Record<string, string> | null;
  business_description: string | null;
  sections: Record<string, { status: string; data: unknown }> | null;
  checked_at: string;
}

export type RegistryAnswer = RegistryAvailable | RegistryUnavailable;

/** The spec's `business.vat` object. */
export interface VatAnswer {
  number: string | null;
  valid: boolean | null;
  checked_at: string | null;
  source: "vat_validation";
  registered_name: string | null;
  registered_address: string | null;
  /** `no_number` when none was given; `unavailable`/`timeout`/`not_configured` when the VAT register did not answer. */
  reason: string | null;
}

/** What a lookup is asked. */
export interface RegisterQuery {
  /** Alpha-2 market code (GB, US, FR…). */
  country: string;
  company_number: string;
  /** US only: the state the entity is registered in, when known. */
  us_state?: string | null;
}
