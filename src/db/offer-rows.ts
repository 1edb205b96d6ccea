/**
 * A stored offer row as the domain's Offer: one mapping for the deal reads (db/deals/) and the lead
 * read that carries its current offers (db/leads/with-relations.ts), below both capability folders.
 */
import type { Offer, OfferMaturity } from "../domain/deals/types";
import type { OfferRow } from "./schema/deals";

export const toOffer = (r: OfferRow): Offer => ({
  id: r.id,
  leadId: r.leadId,
  dealRef: r.dealRef,
  lenderOrganisationId: r.lenderOrganisationId,
  label: r.label,
  maturity: r.maturity,
  kind: r.kind,
  amount: r.amount,
  currency: r.currency,
  annualRatePct: r.annualRatePct,
  factorRate: r.factorRate,
  termMonths: r.termMonths,
  fees: r.fees,
  totalRepayment: r.totalRepayment,
  expiresAt: r.expiresAt,
  notes: r.notes,
  state: r.state as Offer["state"],
  declinedReason: r.declinedReason,
  declinedAt: r.declinedAt,
  superseded: r.superseded,
  supersededAt: r.supersededAt,
  supersededBy: r.supersededBy as OfferMaturity | null,
  simulated: r.simulated,
  createdAt: r.createdAt,
});
