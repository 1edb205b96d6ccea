/**
 * Simulated offers for sandbox leads: computed from the matched products'
 * price ranges so an integration sees realistic, varied terms, and
 * deterministic for a lead id (a seeded hash, never Math.random) so a test
 * suite sees the same offers every run.
 */
import type { MatchedProduct } from "./matcher";

/** At most this many simulated offers per lead, in match order. */
export const SANDBOX_OFFER_LIMIT = 3;
/** How long a simulated offer stays open. */
export const SANDBOX_OFFER_VALIDITY_DAYS = 14;

export interface SimulatedOffer {
  productId: string;
  lenderOrganisationId: string;
  /** Structural, from the product; never a provider name. */
  label: string;
  amount: number;
  currency: string;
  /** Set for amortising products; null for factor-rate products. */
  annualRatePct: number | null;
  /** Set for factor-rate products (advances); null otherwise. */
  factorRate: number | null;
  termMonths: number;
  fees: number;
  /** Principal, plus interest or the factor's charge, plus fees: what the business repays in all. */
  totalRepayment: number;
  expiresAt: string;
  simulated: true;
}

const cents = (value: number) => Math.round(value * 100) / 100;

/** FNV-1a, 32 bits: a small, stable string hash. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a tiny seeded generator of fractions in [0, 1). */
function seeded(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const within = (fraction: number, range: { min: number; max: number }) => range.min + fraction * (range.max - range.min);

/**
 * The amount offered: what was asked, held to the product's limits; when the
 * amount is unknown, the middle of the product's limits rounded down to a
 * thousand (an offer is the lender's terms, so choosing one invents no fact
 * about the business).
 */
function offeredAmount(amount: number | null, product: MatchedProduct) {
  if (amount === null) return Math.max(product.minAmount, Math.floor((product.minAmount + product.maxAmount) / 2 / 1000) * 1000);
  return Math.min(product.maxAmount, Math.max(product.minAmount, amount));
}

/** Total repaid on an amortising loan: equal monthly instalments, each rounded to cents. */
function amortisedRepayment(principal: number, annualRatePct: number, months: number) {
  const r = annualRatePct / 100 / 12;
  const instalment = r === 0 ? principal / months : (principal * r) / (1 - (1 + r) ** -months);
  return cents(cents(instalment) * months);
}

export function simulateOffers(
  leadId: string,
  matchedProducts: readonly MatchedProduct[],
  amount: number | null,
  currency: string,
  issuedAt: Date,
): SimulatedOffer[] {
  const expiresAt = new Date(issuedAt.getTime() + SANDBOX_OFFER_VALIDITY_DAYS * 86_400_000).toISOString();
  return matchedProducts.slice(0, SANDBOX_OFFER_LIMIT).map((product) => {
    const next = seeded(hash32(`${leadId}:${product.lenderOrganisationId}:${product.productId}`));
    const { pricing } = product;
    const principal = cents(offeredAmount(amount, product));
    const termMonths = Math.round(within(next(), pricing.termMonths));
    const fees = cents((principal * pricing.feePct) / 100);
    const rateDraw = next();
    const annualRatePct = pricing.annualRatePct ? cents(within(rateDraw, pricing.annualRatePct)) : null;
    const factorRate = pricing.factorRate ? Math.round(within(rateDraw, pricing.factorRate) * 1000) / 1000 : null;
    const repaid = annualRatePct !== null ? amortisedRepayment(principal, annualRatePct, termMonths) : cents(principal * factorRate!);
    return {
      productId: product.productId,
      lenderOrganisationId: product.lenderOrganisationId,
      label: product.label,
      amount: principal,
      currency,
      annualRatePct,
      factorRate,
      termMonths,
      fees,
      totalRepayment: cents(repaid + fees),
      expiresAt,
      simulated: true,
    };
  });
}
