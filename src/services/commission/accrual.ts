/**
 * The accrual a funding writes (docs/commission.md, "The ledger"): worked out before the funding's
 * batch from the terms in force when the offer was accepted, and written inside that batch, guarded
 * on the funding's winning change, with its `commission.accrued` event. So a funding and its accrual
 * commit together or not at all, and 40 racing `funded` reports write one entry: one update wins, the
 * others' guarded inserts find nothing to write (and the unique index would refuse a second anyway).
 */
import type { Deps } from "../deps";
import type { Statement } from "../../db/batch";
import { entryInsertWhere, type NewCommissionEntry } from "../../db/commission/ledger";
import { termsCandidates } from "../../db/commission/terms";
import { eventInsertWhere } from "../../db/guarded";
import type { NewEvent } from "../../db/webhooks/events";
import { isCurrency, toMinorUnits } from "../../domain/commission/money";
import { monthOf } from "../../domain/commission/month";
import { commissionOn, termsInForce } from "../../domain/commission/terms";
import type { Environment } from "../../domain/identity/keys";
import type { Deal, Offer } from "../../domain/deals/types";
import type { Lead } from "../../domain/leads/types";
import { currentPanel } from "../panel/panel-cache";
import { fundingCeiling } from "../../domain/deals/status";
import { offersOfDeal } from "../../db/deals/offers";
import { findRouting } from "../../db/leads/routing";
import { newId } from "../../lib/ids";
import { partnerEntryView } from "./views";

/** The condition a funding's batch writes its accrual under: the funding's winning change. */
type Guard = Parameters<typeof entryInsertWhere>[2];

/** What an accrual is priced from: the funding, the introducer, the product and when its offer was accepted. */
interface Funding {
  environment: Environment;
  partnerOrganisationId: string;
  lenderOrganisationId: string;
  leadId: string;
  leadReference: string | null;
  dealRef: string | null;
  productId: string;
  productFamily: string | null;
  /** Major units, as reported. */
  fundedAmount: number;
  currency: string;
  /** When the offer was accepted (the terms in force then price the accrual); the funding time when none was. */
  pricedAt: string;
  at: string;
}

/** A commission event to the introducing partner, about the lead (its webhooks carry the lead in `full` mode). */
export const commissionEvent = (entry: NewCommissionEntry, reference: string | null, event: "commission.accrued" | "commission.paid" | "commission.clawed_back"): NewEvent => ({
  organisationId: entry.partnerOrganisationId,
  environment: entry.environment,
  api: "partner",
  event,
  subjectType: "lead",
  subjectId: entry.leadId,
  detail: { reference, commission: partnerEntryView(entry) },
});

/**
 * The accrual's statements for a funding, guarded on `guard` (the funding's winning change), or none
 * when no terms were in force for the product, partner and currency when the offer was accepted.
 */
async function accrualStatements(deps: Deps, funding: Funding, guard: Guard): Promise<Statement[]> {
  if (!isCurrency(funding.currency)) return [];
  const candidates = await termsCandidates(deps.db, funding.lenderOrganisationId, funding.productId, funding.currency, funding.partnerOrganisationId);
  const terms = termsInForce(candidates, funding.partnerOrganisationId, funding.pricedAt);
  if (!terms) return [];
  const fundedMinor = toMinorUnits(funding.fundedAmount, funding.currency);
  const entry: NewCommissionEntry = {
    id: newId("cme"),
    environment: funding.environment,
    kind: "accrued",
    partnerOrganisationId: funding.partnerOrganisationId,
    lenderOrganisationId: funding.lenderOrganisationId,
    leadId: funding.leadId,
    dealRef: funding.dealRef,
    productId: funding.productId,
    productFamily: funding.productFamily,
    accruedEntryId: null,
    amount: commissionOn(terms, fundedMinor),
    currency: funding.currency,
    fundedAmount: fundedMinor,
    termsId: terms.id,
    basis: terms.basis,
    rateBps: terms.rateBps,
    clawbackDays: terms.clawbackDays,
    paymentReference: null,
    reason: null,
    month: monthOf(funding.at),
    createdAt: funding.at,
  };
  return [entryInsertWhere(deps.db, entry, guard), eventInsertWhere(deps.db, commissionEvent(entry, funding.leadReference, "commission.accrued"), guard, funding.at)];
}

/**
 * A lender's deal funded: priced by the deal's product (its first matched product, the one its
 * `product_family` names), in the currency of the offer the funding is held to, by the terms in force
 * when the partner accepted that offer (or now, when the lender funded without an acceptance).
 */
export async function dealAccrualStatements(deps: Deps, deal: Deal, fundedAmount: number, leadReference: string | null, at: string, guard: Guard): Promise<Statement[]> {
  const productId = deal.productIds[0];
  if (!deal.leadId || !deal.partnerOrganisationId || !productId) return [];
  const [offers, routing] = await Promise.all([offersOfDeal(deps.db, deal.ref), findRouting(deps.db, deal.leadId)]);
  const ceiling = fundingCeiling(offers);
  if (!ceiling) return [];
  const acceptedHere = ceiling.state === "accepted" && routing?.acceptedOfferId === ceiling.id && routing.acceptedAt;
  return accrualStatements(
    deps,
    {
      environment: deal.environment,
      partnerOrganisationId: deal.partnerOrganisationId,
      lenderOrganisationId: deal.lenderOrganisationId,
      leadId: deal.leadId,
      leadReference,
      dealRef: deal.ref,
      productId,
      productFamily: deal.productFamily,
      fundedAmount,
      currency: ceiling.currency,
      pricedAt: acceptedHere ? routing.acceptedAt! : at,
      at,
    },
    guard,
  );
}

/**
 * A sandbox lead funded by the simulator: its simulated offer has no deal, so its product is the
 * lender's panel product the offer was simulated from (the offer carries that product's label). The
 * entry is a sandbox entry, so an integration sees the events and the statement it will see live.
 */
export async function simulatedAccrualStatements(deps: Deps, lead: Pick<Lead, "id" | "reference" | "organisationId" | "environment">, offer: Offer, acceptedAt: string | null, at: string, guard: Guard): Promise<Statement[]> {
  const product = (await currentPanel(deps)).find((p) => p.lenderOrganisationId === offer.lenderOrganisationId && p.label === offer.label);
  if (!product) return [];
  return accrualStatements(
    deps,
    {
      environment: lead.environment,
      partnerOrganisationId: lead.organisationId,
      lenderOrganisationId: offer.lenderOrganisationId,
      leadId: lead.id,
      leadReference: lead.reference,
      dealRef: null,
      productId: product.id,
      productFamily: product.productFamily,
      fundedAmount: offer.amount,
      currency: offer.currency,
      pricedAt: acceptedAt ?? at,
      at,
    },
    guard,
  );
}
