/**
 * The band rule and the precedence rule, written once. Every place that shows a
 * lead's or deal's figures (partner lead, lender deal, webhook payloads) calls
 * `resolveFigures`.
 *
 * - Precedence for every figure: parsed statements, then the register, then the applicant.
 * - A figure that comes from a band says so in its basis (`band_midpoint`, or
 *   `band_lower_bound` for the open top band); a band is never shown as a reported number.
 * - The applicant's band always stays beside the figure, whatever source won.
 * - Nothing is inferred: no source, no figure (null), and no band is derived from a figure.
 */
import { bandFigure, findBand } from "./reference/bands";
import type { Market } from "./reference/markets";
import { CREDIT_SCORE_BANDS, FUNDING_AMOUNT_BANDS, REVENUE_BANDS, TIME_IN_BUSINESS_BANDS, type Band } from "./reference/values";

/** What the applicant said; bands are codes from the reference lists. */
export interface ApplicantFigures {
  monthly_revenue?: number | null;
  monthly_revenue_band?: string | null;
  annual_turnover?: number | null;
  tib_months?: number | null;
  time_in_business_band?: string | null;
  amount?: number | null;
  amount_band?: string | null;
  credit_score_band?: string | null;
}

/** What a business register answered (not connected yet: callers pass null). */
export interface RegisterFigures {
  /** Months since incorporation (see `monthsSince`). */
  tib_months?: number | null;
  /** Turnover of the latest filed accounts, annual. */
  annual_turnover?: number | null;
}

/** What parsed bank statements give (not connected yet: callers pass null). */
export interface StatementFigures {
  monthly_revenue?: number | null;
  annual_turnover?: number | null;
}

export interface FigureSources {
  applicant: ApplicantFigures | null;
  register: RegisterFigures | null;
  statements: StatementFigures | null;
}

export type FigureBasis = "statements" | "register" | "filed_accounts" | "applicant" | "band_midpoint" | "band_lower_bound";

export interface ResolvedFigures {
  monthly_revenue: number | null;
  monthly_revenue_basis: FigureBasis | null;
  monthly_revenue_band: string | null;
  annual_turnover: number | null;
  annual_turnover_basis: FigureBasis | null;
  tib_months: number | null;
  tib_months_basis: FigureBasis | null;
  time_in_business_band: string | null;
  amount: number | null;
  amount_basis: FigureBasis | null;
  amount_band: string | null;
  /** Only markets that take a credit score band (US, CA) carry one; elsewhere null. */
  credit_score_band: string | null;
  currency: string;
}

interface Candidate {
  value: number | null | undefined;
  basis: FigureBasis;
}

const known = (v: number | null | undefined): v is number => typeof v === "number" && Number.isFinite(v);

/** The first source that holds the figure wins; a band comes last and says it is a band. */
function pick(candidates: Candidate[], bands: readonly Band[], band: string | null | undefined) {
  for (const c of candidates) if (known(c.value)) return { value: c.value, basis: c.basis };
  const found = findBand(bands, band);
  return found ? bandFigure(found) : { value: null, basis: null };
}

const bandOrNull = (bands: readonly Band[], band: string | null | undefined) => findBand(bands, band)?.value ?? null;

/** The revenue and trading-time figures as every view shows them: each beside its basis and the applicant's band. */
export function figureFields(f: ResolvedFigures) {
  return {
    monthly_revenue: f.monthly_revenue,
    monthly_revenue_band: f.monthly_revenue_band,
    monthly_revenue_basis: f.monthly_revenue_basis,
    annual_turnover: f.annual_turnover,
    annual_turnover_basis: f.annual_turnover_basis,
    time_in_business_band: f.time_in_business_band,
    tib_months: f.tib_months,
    tib_months_basis: f.tib_months_basis,
  };
}

/** The amount as every view shows it: the figure, the applicant's band and the basis that says which it is. */
export function amountFields(f: ResolvedFigures) {
  return { amount: f.amount, amount_band: f.amount_band, amount_basis: f.amount_basis };
}

export function resolveFigures(sources: FigureSources, market: Market): ResolvedFigures {
  const applicant = sources.applicant ?? {};
  const register = sources.register ?? {};
  const statements = sources.statements ?? {};

  const monthly = pick(
    [
      { value: statements.monthly_revenue, basis: "statements" },
      { value: applicant.monthly_revenue, basis: "applicant" },
    ],
    REVENUE_BANDS,
    applicant.monthly_revenue_band,
  );
  const annual = pick(
    [
      { value: statements.annual_turnover, basis: "statements" },
      { value: register.annual_turnover, basis: "filed_accounts" },
      { value: applicant.annual_turnover, basis: "applicant" },
    ],
    [],
    null,
  );
  const tib = pick(
    [
      { value: register.tib_months, basis: "register" },
      { value: applicant.tib_months, basis: "applicant" },
    ],
    TIME_IN_BUSINESS_BANDS,
    applicant.time_in_business_band,
  );
  const amount = pick([{ value: applicant.amount, basis: "applicant" }], FUNDING_AMOUNT_BANDS, applicant.amount_band);
  const takesCreditScore = market.block === "us" || market.block === "ca";

  return {
    monthly_revenue: monthly.value,
    monthly_revenue_basis: monthly.basis,
    monthly_revenue_band: bandOrNull(REVENUE_BANDS, applicant.monthly_revenue_band),
    annual_turnover: annual.value,
    annual_turnover_basis: annual.basis,
    tib_months: tib.value,
    tib_months_basis: tib.basis,
    time_in_business_band: bandOrNull(TIME_IN_BUSINESS_BANDS, applicant.time_in_business_band),
    amount: amount.value,
    amount_basis: amount.basis,
    amount_band: bandOrNull(FUNDING_AMOUNT_BANDS, applicant.amount_band),
    credit_score_band: takesCreditScore ? bandOrNull(CREDIT_SCORE_BANDS, applicant.credit_score_band) : null,
    currency: market.currency,
  };
}

/** Whole months from an incorporation date (`YYYY-MM-DD`) to `asOf`; null when the date is unreadable or in the future. */
export function monthsSince(incorporatedOn: string, asOf: Date): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(incorporatedOn);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  let months = (asOf.getUTCFullYear() - y) * 12 + (asOf.getUTCMonth() + 1 - mo);
  if (asOf.getUTCDate() < d) months -= 1;
  return months < 0 ? null : months;
}
