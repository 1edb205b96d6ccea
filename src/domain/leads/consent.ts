/**
 * Consent the service can prove: a lead's `consent.receipt` is written by the service from
 * the consent text version agreed to, never taken from a body. Pure: which receipt a change makes, and
 * whether a lead may be submitted.
 */
import { commissionDisclosureVersion, consentTextIn, consentTextVersion, CONSENT_TEXT_VERSIONS } from "./consent-texts";
import type { ConsentChannel, ConsentReceipt, LeadConsent } from "./types";

export const CONSENT_CHANNELS: readonly ConsentChannel[] = ["application_link", "partner_api", "portal"];

/** The refusal words for a version that is not published; null when it is (or none is named). */
export function unknownTextVersion(consent: LeadConsent | null | undefined): string | null {
  const version = consent?.text_version;
  if (version === undefined || version === null || consentTextVersion(version)) return null;
  return `consent.text_version "${version}" is not a published consent text version; one of: ${CONSENT_TEXT_VERSIONS.join(", ")} (GET /partner/v1/consent-texts/{version}).`;
}

interface Agreement {
  version: string;
  locale: string;
  agreedAt: string;
  channel: ConsentChannel;
  softCreditSearch: boolean;
  /** The commission disclosure version shown beside the text, in the same locale as the text; null where none was shown. */
  disclosureVersion: string | null;
}

function receiptOf(a: Agreement): ConsentReceipt {
  const text = consentTextIn(consentTextVersion(a.version)!, a.locale);
  const disclosureVersion = a.disclosureVersion === null ? null : commissionDisclosureVersion(a.disclosureVersion);
  const disclosure = disclosureVersion ? consentTextIn(disclosureVersion, a.locale) : null;
  return {
    text_version: a.version,
    text_sha256: text.sha256,
    locale: text.locale,
    agreed_at: a.agreedAt,
    channel: a.channel,
    soft_credit_search: a.softCreditSearch,
    disclosure_version: a.disclosureVersion,
    disclosure_locale: disclosure?.locale ?? null,
    disclosure_sha256: disclosure?.sha256 ?? null,
  };
}

/** A receipt as every door shows it: one written before the disclosure's locale and hash were recorded has them null. */
const receiptView = (receipt: ConsentReceipt): ConsentReceipt => ({ ...receipt, disclosure_locale: receipt.disclosure_locale ?? null, disclosure_sha256: receipt.disclosure_sha256 ?? null });

/**
 * The consent a partner's write (API or portal) leaves on the lead, and whether it captured a new
 * receipt. A receipt needs `obtained: true` and a published `text_version`; the one held stays while
 * what it proves (version, soft search) is unchanged, so an unrelated PATCH fires nothing. Consent
 * no longer obtained drops the receipt, except a withdrawn one, which stays as the record of what was
 * withdrawn.
 */
export function consentAfterWrite(held: LeadConsent | null, merged: LeadConsent | null, channel: ConsentChannel, locale: string, at: string): { consent: LeadConsent | null; captured: boolean } {
  if (!merged) return { consent: held?.withdrawn_at ? held : null, captured: false };
  const heldReceipt = held?.receipt ?? null;
  if (merged.obtained === true && merged.text_version) {
    const soft = merged.soft_credit_search === true;
    if (heldReceipt && !merged.withdrawn_at && heldReceipt.text_version === merged.text_version && heldReceipt.soft_credit_search === soft) {
      return { consent: { ...merged, receipt: heldReceipt }, captured: false };
    }
    const receipt = receiptOf({ version: merged.text_version, locale, agreedAt: merged.obtained_at ?? at, channel, softCreditSearch: soft, disclosureVersion: null });
    return { consent: { ...merged, receipt, withdrawn_at: null }, captured: true };
  }
  return { consent: { ...merged, receipt: merged.withdrawn_at ? heldReceipt : null }, captured: false };
}

/** The business's own agreement through the application link. */
export function consentByBusiness(a: Omit<Agreement, "channel">): LeadConsent {
  return {
    obtained: true,
    obtained_at: a.agreedAt,
    soft_credit_search: a.softCreditSearch,
    text_version: a.version,
    receipt: receiptOf({ ...a, channel: "application_link" }),
    withdrawn_at: null,
  };
}

/** Where the business withdrew its consent: the application link's done page, or the client hub. */
export type ConsentWithdrawalChannel = "application_link" | "client_hub";
export const CONSENT_WITHDRAWAL_CHANNELS: readonly ConsentWithdrawalChannel[] = ["application_link", "client_hub"];

/** Consent the business can withdraw: given (by it, or declared by its introducer) and not withdrawn since. */
export const consentToWithdraw = (consent: LeadConsent | null) => consent?.obtained === true;

/** Whether the business may withdraw now: consent given and the lead a draft; once submitted, its application is with providers. */
export function consentWithdrawalStanding(lead: { state: string; consent: LeadConsent | null }): "withdrawable" | "submitted" | "none" {
  if (!consentToWithdraw(lead.consent)) return "none";
  return lead.state === "draft" ? "withdrawable" : "submitted";
}

/** Withdrawn: no longer obtained, the receipt kept as the record of what was withdrawn. */
export const withdrawnConsent = (held: LeadConsent | null, at: string): LeadConsent => ({ ...(held ?? {}), obtained: false, withdrawn_at: at });

/** A lead whose consent was withdrawn (and not given again) cannot be submitted. */
export const consentWithdrawn = (consent: LeadConsent | null) => Boolean(consent?.withdrawn_at) && consent?.obtained !== true;

/** The consent as the lead and the deal show it. */
export function consentView(consent: LeadConsent | null) {
  const c = consent ?? {};
  return {
    obtained: c.obtained ?? null,
    obtained_at: c.obtained_at ?? null,
    soft_credit_search: c.soft_credit_search ?? null,
    text_version: c.text_version ?? null,
    withdrawn_at: c.withdrawn_at ?? null,
    receipt: c.receipt ? receiptView(c.receipt) : null,
  };
}
