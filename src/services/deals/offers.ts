/**
 * Offers a lender makes on a deal: new terms supersede the current ones, firm terms are never
 * replaced by indicative ones; the offer, the lead's move and their events go in one batch.
 */
import { isoNow, type Deps } from "../deps";
import { dealChanged, offerDealUpdate } from "../../db/deals/deals";
import { leadReference, routingPresentedUpdate } from "../../db/leads/routing";
import { noCurrentFirmOffer, offerInsertWhere, offersOfDeal, supersedeCurrentOffers } from "../../db/deals/offers";
import type { Statement } from "../../db/batch";
import { eventInsertWhere } from "../../db/guarded";
import { allOf, leadIn, moveLead, routingChanged } from "../../db/leads/progress";
import type { Scope } from "../../domain/identity/caller";
import { LEAD_STATES_OPEN_FOR_OFFERS, canMove, statusesAllowing } from "../../domain/deals/status";
import type { OfferMaturity } from "../../domain/deals/types";
import { dealOfferView } from "../../domain/deals/offer-view";
import { marketFor } from "../../domain/reference/markets";
import { PRODUCT_FAMILIES } from "../../domain/reference/values";
import { randomToken } from "../../lib/crypto";
import { Refusal } from "../../lib/refusal";
import { newId } from "../../lib/ids";
import { runGuardedBatch } from "../../db/batch";
import { requireDeal } from "./reads";
import { lenderEvent, partnerEvent } from "./events";

export interface OfferTerms {
  maturity: OfferMaturity;
  amount: number;
  kind: string;
  annual_rate_pct?: number;
  factor_rate?: number;
  term_months?: number;
  fees?: number;
  total_repayment?: number;
  expires_at?: string;
  notes?: string;
}

const familyLabel = (family: string | null | undefined) => PRODUCT_FAMILIES.find((f) => f.value === family)?.label ?? null;

export async function makeOffer(deps: Deps, scope: Scope, ref: string, terms: OfferTerms) {
  const { db } = deps;
  const deal = await requireDeal(deps, scope, ref);
  if (!canMove(deal.lenderStatus, "offer_made") || deal.status !== "submitted") {
    throw new Refusal("invalid_transition", `No offer can be made on a deal whose lender_status is ${deal.lenderStatus} and status ${deal.status}.`);
  }
  const existing = await offersOfDeal(db, deal.ref);
  if (terms.maturity === "indicative" && existing.some((o) => !o.superseded && o.state === "presented" && o.maturity === "firm")) {
    throw new Refusal("invalid_transition", "A firm offer is current; indicative terms cannot replace it. Send new firm terms instead.");
  }
  const at = isoNow(deps);
  const token = randomToken(24);
  const changed = dealChanged(deal.ref, token);
  const market = marketFor(deal.subject.country);
  const offer = {
    id: newId("off"),
    environment: deal.environment,
    leadId: deal.leadId,
    dealRef: deal.ref,
    lenderOrganisationId: deal.lenderOrganisationId,
    // Structural: the product family's label, never the lender's name.
    label: familyLabel(terms.kind) ?? familyLabel(deal.subject.funding?.product_family) ?? "Funding offer",
    maturity: terms.maturity,
    kind: terms.kind,
    amount: terms.amount,
    currency: market.currency,
    annualRatePct: terms.annual_rate_pct ?? null,
    factorRate: terms.factor_rate ?? null,
    termMonths: terms.term_months ?? null,
    fees: terms.fees ?? null,
    totalRepayment: terms.total_repayment ?? null,
    expiresAt: terms.expires_at ? new Date(terms.expires_at).toISOString() : null,
    notes: terms.notes ?? null,
    state: "presented",
    superseded: false,
    simulated: false,
    createdAt: at,
  };
  const statements: Statement[] = [
    offerDealUpdate(db, scope, deal.ref, statusesAllowing("offer_made"), LEAD_STATES_OPEN_FOR_OFFERS, token, at, terms.maturity === "indicative" ? noCurrentFirmOffer(deal.ref) : undefined),
    supersedeCurrentOffers(db, deal.ref, terms.maturity, changed, at),
    offerInsertWhere(db, offer, changed),
    eventInsertWhere(db, lenderEvent(deal, "deal.updated", { update: { status: "offer_made", reason: null, funded_amount: null } }), changed, at),
  ];
  const partner = deal.partnerOrganisationId;
  if (deal.leadId && partner) {
    const leadId = deal.leadId;
    const reference = await leadReference(db, leadId);
    statements.push(
      routingPresentedUpdate(db, leadId, token, at, changed),
      moveLead(db, leadId, ["matched"], "offers_available", at, routingChanged(leadId, token)),
      eventInsertWhere(db, partnerEvent(deal, partner, reference, "lead.offers_available"), allOf(routingChanged(leadId, token), leadIn(leadId, "offers_available")), at),
    );
  }
  const guardChanges = await runGuardedBatch(db, statements);
  if (guardChanges !== 1) {
    throw new Refusal("invalid_transition", "The deal no longer takes these terms (its status changed, an offer on the lead was accepted, or firm terms became current).");
  }
  const made = (await offersOfDeal(db, deal.ref)).find((o) => o.id === offer.id)!;
  return dealOfferView(made);
}

export async function dealOffers(deps: Deps, scope: Scope, ref: string) {
  const { db } = deps;
  const deal = await requireDeal(deps, scope, ref);
  return (await offersOfDeal(db, deal.ref)).map(dealOfferView);
}
