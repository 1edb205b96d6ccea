/**
 * The lender reports a deal's status (in review, declined, funded). The status change, the lead's
 * outcome and their events go in one batch; the conditional update at its head decides races.
 */
import { isoNow, type Deps } from "../deps";
import { closePresentedOffers, offersOfDeal, offersOfDealWhere } from "../../db/deals/offers";
import { dealChanged, dealFundable, dealStatusUpdate, fundableUpTo } from "../../db/deals/deals";
import { noLenderLeftToFund, findRouting, leadReference, routingOutcomeUpdate } from "../../db/leads/routing";
import type { Statement } from "../../db/batch";
import { eventInsertWhere } from "../../db/guarded";
import { allOf, leadIn, moveLead, routingChanged } from "../../db/leads/progress";
import type { Scope } from "../../domain/identity/caller";
import { LEAD_STATES_OPEN_FOR_OUTCOME, canMove, fundedAmountRefusal, fundedOnRefusal, fundingCeiling, statusesAllowing, type ReportableStatus } from "../../domain/deals/status";
import type { Deal } from "../../domain/deals/types";
import { partnerOutcomes } from "../../domain/deals/outcomes";
import { routedOptionsOfLead } from "../../db/leads/with-relations";
import { declineReasonsOf, lenderReasonView, type DeclineInput } from "../../domain/deals/decline";
import { randomToken } from "../../lib/crypto";
import { Refusal } from "../../lib/refusal";
import { runGuardedBatch } from "../../db/batch";
import { requireDeal } from "./reads";
import { lenderEvent, partnerEvent } from "./events";
import { dealAccrualStatements } from "../commission/accrual";

const invalidTransition = (deal: Deal, to: string) =>
  new Refusal("invalid_transition", `The deal's lender_status is ${deal.lenderStatus}; it cannot move to ${to}.`);

export interface StatusReport extends DeclineInput {
  status: ReportableStatus;
  funded_amount?: number;
  /** With funded: the day the money was paid out (`YYYY-MM-DD`). */
  funded_on?: string;
}

export async function reportStatus(deps: Deps, scope: Scope, ref: string, report: StatusReport) {
  const { db } = deps;
  const deal = await requireDeal(deps, scope, ref);
  // Like a malformed body, an unknown code is refused (`unknown_code`, naming `reasons.N.code`) before the move is judged.
  const declineReasons = report.status === "declined" ? declineReasonsOf(report) : undefined;
  if (!canMove(deal.lenderStatus, report.status)) throw invalidTransition(deal, report.status);
  if (report.status === "funded" && report.funded_amount === undefined) {
    throw new Refusal("invalid_request", "funded_amount is required when status is funded.", { field: "funded_amount" });
  }
  if (report.status !== "funded" && report.funded_amount !== undefined) {
    throw new Refusal("invalid_request", "funded_amount is only taken with status funded.", { field: "funded_amount" });
  }
  if (report.status === "funded" && deal.leadId && deal.status !== "offer_accepted" && (await findRouting(db, deal.leadId))?.acceptedOfferId) {
    throw new Refusal("invalid_transition", "The partner accepted another provider's offer on this lead; only that deal can be funded.");
  }
  if (report.status === "funded" && report.funded_on !== undefined) {
    const late = fundedOnRefusal(report.funded_on, isoNow(deps).slice(0, 10), deal.createdAt.slice(0, 10));
    if (late) throw late;
  }
  const overOffer = async () => (report.status === "funded" ? fundedAmountRefusal(report.funded_amount!, fundingCeiling(await offersOfDeal(db, deal.ref))) : null);
  const refused = await overOffer();
  if (refused) throw refused;
  const at = isoNow(deps);
  const token = randomToken(24);
  const fundedAmount = report.status === "funded" ? report.funded_amount! : null;
  // The partner reads when the money went out: the day the lender gave, else the moment of the report.
  const fundedAt = report.status === "funded" && report.funded_on !== undefined ? `${report.funded_on}T00:00:00.000Z` : at;
  const reason = report.reason ?? null;
  const changed = dealChanged(deal.ref, token);
  const statements: Statement[] = [
    dealStatusUpdate(db, scope, deal.ref, {
      to: report.status,
      from: statusesAllowing(report.status),
      status: report.status === "funded" ? "funded" : report.status === "declined" ? "declined" : undefined,
      reason,
      declineReasons,
      fundedAmount,
      token,
      at,
      guard: report.status === "funded" ? allOf(dealFundable, fundableUpTo(report.funded_amount!)) : undefined,
    }),
    eventInsertWhere(db, lenderEvent(deal, "deal.updated", { update: { status: report.status, reason, funded_amount: fundedAmount, ...(declineReasons ? { reasons: declineReasons.map(lenderReasonView) } : {}) } }), changed, at),
  ];
  if (report.status === "declined") statements.push(closePresentedOffers(db, offersOfDealWhere(deal.ref), changed));
  const partner = deal.partnerOrganisationId;
  if (deal.leadId && partner && (report.status === "funded" || report.status === "declined")) {
    const leadId = deal.leadId;
    const outcome = report.status;
    const reference = await leadReference(db, leadId);
    // lead.declined tells the partner what became of every routed option, this decline included.
    const outcomes =
      outcome === "declined"
        ? partnerOutcomes((await routedOptionsOfLead(db, leadId)).map((o) => (o.ref === deal.ref ? { ...o, lenderStatus: "declined" as const, declineReasons: declineReasons ?? [], updatedAt: at } : o)))
        : [];
    const guard = outcome === "declined" ? allOf(changed, noLenderLeftToFund(leadId)) : changed;
    statements.push(
      routingOutcomeUpdate(db, leadId, outcome, fundedAmount, token, outcome === "funded" ? fundedAt : at, guard),
      moveLead(db, leadId, LEAD_STATES_OPEN_FOR_OUTCOME, outcome, at, routingChanged(leadId, token)),
      eventInsertWhere(
        db,
        partnerEvent(deal, partner, reference, `lead.${outcome}`, outcome === "funded" ? { funding_outcome: { funded_at: fundedAt, funded_amount: fundedAmount } } : { outcomes }),
        allOf(routingChanged(leadId, token), leadIn(leadId, outcome)),
        at,
      ),
    );
    // The introducer's commission accrues with the funding, in its batch (docs/commission.md).
    if (outcome === "funded") statements.push(...(await dealAccrualStatements(deps, deal, fundedAmount!, reference, at, changed)));
  }
  const guardChanges = await runGuardedBatch(db, statements);
  if (guardChanges !== 1) {
    const now = await requireDeal(deps, scope, ref);
    // An offer made while this report was on its way may have lowered the ceiling.
    const lowered = await overOffer();
    if (lowered) throw lowered;
    throw invalidTransition(now, report.status);
  }
  return requireDeal(deps, scope, ref);
}
