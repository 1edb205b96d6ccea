import type { LenderStatus } from "../../../domain/reference/values";

/** How a lender_status reads on a page; the value itself is what filters and the API use. */
export const LENDER_STATUS_LABELS: Record<LenderStatus, string> = {
  new: "New",
  in_review: "In review",
  offer_made: "Offer made",
  declined: "Declined",
  funded: "Funded",
};

export const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : "—");

export const money = (amount: number | null | undefined, currency: string) =>
  amount === null || amount === undefined ? "—" : `${currency} ${amount.toLocaleString("en-GB", { maximumFractionDigits: 2 })}`;

export const orDash = (value: string | number | boolean | null | undefined) =>
  value === null || value === undefined || value === "" ? "—" : typeof value === "boolean" ? (value ? "yes" : "no") : String(value);
