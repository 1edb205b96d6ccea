import { MARKETS } from "../../../domain/reference/markets";
import type { LenderStatus } from "../../../domain/reference/values";
import { formatFor } from "../../kit/format";

/** How a lender_status reads on a page; the value itself is what filters and the API use. */
export const LENDER_STATUS_LABELS: Record<LenderStatus, string> = {
  new: "New",
  in_review: "In review",
  offer_made: "Offer made",
  declined: "Declined",
  funded: "Funded",
};

/**
 * A moment in the portal's one form (web/kit/format.ts), with its zone named: `8 Dec 2026, 06:24 UTC`.
 * The lender reads deals of many markets, so times are in UTC unless the market is given.
 */
export const day = (iso: string | null | undefined, country?: string | null) => formatFor(country ?? null).time(iso);

/** An amount in the locale of the market that uses its currency: `£40,000`, `$40,000.50`. */
export const money = (amount: number | null | undefined, currency: string) => formatFor(MARKETS.find((m) => m.currency === currency)?.country ?? null).money(amount, currency);

export const orDash = (value: string | number | boolean | null | undefined) =>
  value === null || value === undefined || value === "" ? "—" : typeof value === "boolean" ? (value ? "yes" : "no") : String(value);
