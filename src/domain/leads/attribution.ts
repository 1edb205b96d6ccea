/**
 * One business, one introducer (docs/leads.md, "Attribution"): which company a
 * submitted lead claims, and what the later lead of another partner reads.
 * The claim itself is decided in the database (src/db/leads/claims.ts).
 */
import { companyIdentity, type CompanyIdentity } from "../registers/identity";
import type { Lead } from "./types";

/** Days a funded lead keeps its company after funding, unless the setting says otherwise. */
const ATTRIBUTION_WINDOW_DAYS_DEFAULT = 90;

/** The attribution window in days: the `ATTRIBUTION_WINDOW_DAYS` var when it is a whole number of at least 1, else 90. */
export function attributionWindowDays(setting: string | undefined): number {
  const days = Number(setting);
  return Number.isInteger(days) && days >= 1 ? days : ATTRIBUTION_WINDOW_DAYS_DEFAULT;
}

/**
 * The sandbox company numbers attribution applies to (GB), so an integration
 * can see each outcome and still rerun its tests: every other sandbox number,
 * the register fixtures included, can be submitted again and again.
 * - `00000021`: attributed like a live company (a second open lead of the
 *   same partner is `duplicate_lead`; another partner's is `already_introduced`
 *   until the first lead ends or an operator releases the attribution).
 * - `00000022`: always already introduced by another partner (no partner of
 *   the sandbox holds it): every submit ends `out_of_scope`, `already_introduced`.
 * - `00000023`: released. A routed submit records its attribution as released
 *   at once, as an operator's release would, so the next lead of any partner
 *   is routed: the post-release path, rerunnable.
 */
const SANDBOX_ATTRIBUTED_NUMBERS = { attributed: "00000021", alreadyIntroduced: "00000022", released: "00000023" } as const;

/** The release reason the sandbox's released number records (docs/leads.md, "Attribution"). */
export const SANDBOX_RELEASE_REASON = "Sandbox test number 00000023: released on submission.";

/** The reason a later lead of another partner carries: nothing of the first partner, the date or the lender. */
export const ALREADY_INTRODUCED = {
  code: "already_introduced",
  detail: "This company was already introduced to the platform through another participant, so this lead is not routed to any funding provider.",
} as const;

/** `releasedAtOnce`: the sandbox's released number, whose claim is written already released. */
export type Claimable = { identity: CompanyIdentity; standingClaim: boolean; releasedAtOnce?: boolean };

/**
 * The company a lead claims at submit, or null when it claims none: a lead
 * naming no number, or a sandbox lead naming a number outside the documented
 * attribution numbers. `standingClaim`: the sandbox number another partner
 * always holds.
 */
export function claimableCompany(lead: Pick<Lead, "country" | "business" | "environment">): Claimable | null {
  const identity = companyIdentity(lead.country, lead.business?.company_number, lead.business?.vat?.number);
  if (!identity) return null;
  if (lead.environment === "live") return { identity, standingClaim: false };
  const gb = (n: string) => `GB:register:${n}`;
  if (identity.key === gb(SANDBOX_ATTRIBUTED_NUMBERS.attributed)) return { identity, standingClaim: false };
  if (identity.key === gb(SANDBOX_ATTRIBUTED_NUMBERS.alreadyIntroduced)) return { identity, standingClaim: true };
  if (identity.key === gb(SANDBOX_ATTRIBUTED_NUMBERS.released)) return { identity, standingClaim: false, releasedAtOnce: true };
  return null;
}

/** The moment before which a funded lead no longer holds its company. */
export const windowCutoff = (now: Date, days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
