import type { RegistryAddress, RegistryAvailable } from "../../../domain/registers/types";
import { text } from "../../answer";
import type { CompanyProfile, FilingItem } from "./schemas";
import type { z } from "zod";
import type { chAddress } from "./schemas";

/** Pure turns from Companies House resources into the spec's registry fields. */

export function addressOf(address: z.infer<typeof chAddress> | null | undefined): RegistryAddress | null {
  if (!address) return null;
  const street = [text(address.premises), text(address.address_line_1)].filter(Boolean).join(" ");
  return {
    line1: text(street),
    line2: text(address.address_line_2),
    locality: text(address.locality),
    region: text(address.region),
    postal_code: text(address.postal_code),
    country: text(address.country),
  };
}

export function dueOf(block: { next_due?: string | null; overdue?: boolean | null } | null | undefined) {
  if (!block) return null;
  return { next_due: text(block.next_due), overdue: block.overdue ?? null };
}

export function filingOf(item: FilingItem): NonNullable<RegistryAvailable["filings"]>[number] {
  return {
    type: text(item.type),
    description: text(item.description),
    date: text(item.date),
    period_start: null,
    // Accounts and confirmation statements carry the date they were made up to.
    period_end: text(item.description_values?.made_up_date),
  };
}

/** The latest statement of capital in the filing history (incorporation, SH01, confirmation statements with updates). */
type CapitalEntry = NonNullable<NonNullable<FilingItem["description_values"]>["capital"]>[number];
/** A capital entry with a figure and a currency; an incomplete one is dropped, never the whole history. */
const completeCapital = (entries: CapitalEntry[] | null | undefined) =>
  (entries ?? []).flatMap((c) => {
    const figure = typeof c.figure === "number" ? String(c.figure) : text(c.figure);
    const currency = text(c.currency);
    return figure !== null && currency !== null ? [{ figure, currency }] : [];
  });

export function shareCapitalOf(items: FilingItem[]): RegistryAvailable["share_capital"] {
  const latest = [...items]
    .filter((item) => completeCapital(item.description_values?.capital).length > 0)
    .sort((a, b) => (b.date ?? "").localeCompare(a.date ?? ""))[0];
  const capital = completeCapital(latest?.description_values?.capital);
  // A company with share classes in more than one currency has no one amount.
  const currencies = new Set(capital.map((c) => c.currency));
  if (capital.length === 0 || currencies.size !== 1) return null;
  const amount = capital.reduce((sum, c) => sum + Number(c.figure.replace(/,/g, "")), 0);
  return Number.isFinite(amount) ? { amount, currency: capital[0].currency } : null;
}

export function activityCodesOf(profile: CompanyProfile): RegistryAvailable["activity_codes"] {
  if (!profile.sic_codes) return null;
  return profile.sic_codes.map((code) => ({ scheme: "UK SIC 2007", code, description: null, classification: null }));
}

/** The insolvency resource's `status`: an array on the live service, a string in the published spec; always a list here. */
export function insolvencyStatuses(status: string | string[] | null | undefined): string[] {
  const list = Array.isArray(status) ? status : status === null || status === undefined ? [] : [status];
  return list.map((s) => text(s)).filter((s): s is string => s !== null);
}

export const hasLink = (profile: CompanyProfile, key: string) => typeof profile.links?.[key] === "string";
