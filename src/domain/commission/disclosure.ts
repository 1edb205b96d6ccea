/**
 * The commission disclosure the business reads before it can accept an offer (CONC 4.5.3R: the
 * existence and nature of the commission, prominently and in good time; 4.5.4R: the amount on request).
 * Worded here once, from the terms in force, for every place an offer is accepted (the hub, the
 * application link); `DISCLOSURE_VERSION` names this wording, so the evidence says which text was shown.
 * Change the wording, change the version.
 */
import { commissionOn, type CommissionTerms } from "./terms";
import { minorToDecimal, toMinorUnits, type CurrencyCode } from "./money";

const DISCLOSURE_VERSION = "commission-disclosure-2026-11";

/** `nature`: that commission may be paid, and of what kind. `amount`: how much, on request ("How much?"). */
export type DisclosureWhat = "nature" | "amount";
export type DisclosureChannel = "hub" | "application_link";

export interface CommissionDisclosure {
  disclosureVersion: string;
  what: DisclosureWhat;
  offerId: string;
  dealRef: string | null;
  /** The sentence shown, exactly. */
  text: string;
  /** With `amount` and terms in force: the commission on the offer's amount, minor units; null otherwise. */
  amount: number | null;
  currency: CurrencyCode;
}

type Terms = Pick<CommissionTerms, "basis" | "rateBps" | "flatAmount" | "minAmount" | "maxAmount">;
interface DisclosedOffer {
  id: string;
  dealRef: string | null;
  amount: number;
  currency: CurrencyCode;
}

/** How the page writes an amount in major units (the hub's market format); by default the currency code and two decimals. */
export type MoneyWords = (major: number, currency: CurrencyCode) => string;
const plainMoney: MoneyWords = (major, currency) => `${currency} ${major.toFixed(2)}`;

function natureOf(terms: Terms, currency: CurrencyCode, words: MoneyWords): string {
  const money = (minor: number, c: CurrencyCode) => words(Number(minorToDecimal(minor, c)), c);
  const bounds = [terms.minAmount !== null ? `at least ${money(terms.minAmount, currency)}` : null, terms.maxAmount !== null ? `at most ${money(terms.maxAmount, currency)}` : null].filter(Boolean);
  const kind =
    terms.basis === "percentage"
      ? `a percentage (${(terms.rateBps! / 100).toLocaleString("en-GB", { maximumFractionDigits: 2 })}%) of the amount you are funded`
      : "a fixed fee";
  return `${kind}${bounds.length ? ` (${bounds.join(", ")})` : ""}`;
}

/** The disclosure of `what` for an offer under `terms` (null: no commission terms are in force for it). */
export function wordDisclosure(terms: Terms | null, offer: DisclosedOffer, what: DisclosureWhat, words: MoneyWords = plainMoney): CommissionDisclosure {
  const money = (minor: number, c: CurrencyCode) => words(Number(minorToDecimal(minor, c)), c);
  const base = { disclosureVersion: DISCLOSURE_VERSION, what, offerId: offer.id, dealRef: offer.dealRef, currency: offer.currency };
  if (terms === null) {
    return { ...base, amount: null, text: "Under the terms in force today, your adviser receives no commission from the funding provider for this offer." };
  }
  if (what === "nature") {
    return {
      ...base,
      amount: null,
      text: `Your adviser, who introduced you, may receive commission from the funding provider if this offer is funded: ${natureOf(terms, offer.currency, words)}. It does not change what you repay. Ask "How much?" to see the amount.`,
    };
  }
  const amount = commissionOn(terms, toMinorUnits(offer.amount, offer.currency));
  return {
    ...base,
    amount,
    text: `If this offer is funded at ${money(toMinorUnits(offer.amount, offer.currency), offer.currency)}, your adviser would receive ${money(amount, offer.currency)} in commission from the funding provider under the terms in force today.`,
  };
}
