/**
 * What follows an accrual on the ledger (docs/commission.md): the operator's payment and the lender's
 * report that the funded deal ended early. Each is a new entry (never a change to the accrual) with
 * its event, in one batch; the unique index on (accrual, kind) lets one payment and one clawback exist.
 */
import { depsIn, isoNow, type Deps } from "../deps";
import { runGuardedBatch, type Statement } from "../../db/batch";
import { accrualOfLead, entryInsert, entryInsertWhere, entryWritten, findEntry, followUpsOf, type CommissionEntryRow, type NewCommissionEntry } from "../../db/commission/ledger";
import { dealChanged, findDeal, repaymentOutcomeUpdate } from "../../db/deals/deals";
import { normaliseDealReference } from "../../domain/deals/reference";
import { eventInsertWhere } from "../../db/guarded";
import { auditEntryWhere } from "../../db/portal/audit";
import { leadReference } from "../../db/leads/routing";
import { allOf } from "../../db/leads/progress";
import { monthOf } from "../../domain/commission/month";
import { withinClawback } from "../../domain/commission/terms";
import type { Scope } from "../../domain/identity/caller";
import type { RepaymentOutcome } from "../../domain/deals/types";
import type { Environment } from "../../domain/identity/keys";
import { randomToken } from "../../lib/crypto";
import { newId } from "../../lib/ids";
import { Refusal } from "../../lib/refusal";
import { commissionEvent } from "./accrual";
import { operatorEntryView } from "./views";


/** The entry that follows `accrual`: the same deal, product and terms, its own kind, amount and time. */
const followUp = (accrual: CommissionEntryRow, kind: "paid" | "clawed_back", at: string, extra: Pick<NewCommissionEntry, "paymentReference" | "reason">): NewCommissionEntry => ({
  ...accrual,
  id: newId("cme"),
  kind,
  accruedEntryId: accrual.id,
  // Both take the accrual's whole amount off what is outstanding on the deal.
  amount: -accrual.amount,
  paymentReference: extra.paymentReference ?? null,
  reason: extra.reason ?? null,
  month: monthOf(at),
  createdAt: at,
});

/**
 * The operator paid the introducer an accrued entry: a `paid` entry with the payment reference,
 * `commission.paid`, and the introducer's audit entry, written in the environment's database, where the
 * accrual and the lead are.
 */
export async function markCommissionPaid(operatorDeps: Deps, environment: Environment, entryId: string, paymentReference: string) {
  const deps = depsIn(operatorDeps, environment);
  const { db } = deps;
  const accrual = await findEntry(db, environment, entryId);
  if (!accrual) throw new Refusal("not_found", "No commission entry with that id in this environment.");
  if (accrual.kind !== "accrued") throw new Refusal("conflict", `Entry ${entryId} is a ${accrual.kind} entry; only an accrued entry is paid.`);
  const done = await followUpsOf(db, environment, accrual.id);
  if (done.some((e) => e.kind === "paid")) throw new Refusal("conflict", "This accrual is already paid; its paid entry holds the payment reference.");
  if (done.some((e) => e.kind === "clawed_back")) throw new Refusal("conflict", "This accrual was clawed back before it was paid; nothing is owed on it.");
  const at = isoNow(deps);
  const paid = followUp(accrual, "paid", at, { paymentReference, reason: null });
  const reference = await leadReference(db, accrual.leadId);
  const statements: Statement[] = [
    entryInsert(db, paid),
    eventInsertWhere(db, commissionEvent(paid, reference, "commission.paid"), entryWritten(paid.id), at),
    // The introducer's audit entry, as the operator's: the audit table is in every database, so it joins this batch.
    auditEntryWhere(db, { id: newId("aud"), organisationId: paid.partnerOrganisationId, memberId: "operator", environment, action: "commission.paid", target: paid.id, at }, entryWritten(paid.id)),
  ];
  if ((await runGuardedBatch(db, statements)) !== 1) throw new Refusal("conflict", "This accrual is already paid; its paid entry holds the payment reference.");
  return operatorEntryView({ ...paid, accruedEntryId: accrual.id } as CommissionEntryRow);
}

/**
 * The lender reports that a funded deal was settled early or defaulted. `lender_status` stays
 * `funded` (the specification's states); the deal records the outcome once. Within the accrual's
 * `clawback_days` of the funding, the same batch writes a negative `clawed_back` entry and
 * `commission.clawed_back`; after it, the commission stands.
 */
export async function reportRepaymentOutcome(deps: Deps, scope: Scope, ref: string, outcome: RepaymentOutcome) {
  const { db } = deps;
  // The deal read as the lender's own deal reads are (services/deals/reads.ts); this folder sits below deals/, so it reads it itself.
  const deal = await findDeal(db, scope, normaliseDealReference(ref));
  if (!deal) throw new Refusal("not_found", "No deal with that reference is routed to this account in this environment.");
  if (deal.lenderStatus !== "funded") throw new Refusal("invalid_transition", `The deal's lender_status is ${deal.lenderStatus}; only a funded deal can be settled early or default.`);
  if (deal.repaymentOutcome) throw new Refusal("invalid_transition", `The deal's repayment outcome was already reported (${deal.repaymentOutcome}).`);
  const at = isoNow(deps);
  const token = randomToken(24);
  const statements: Statement[] = [repaymentOutcomeUpdate(db, scope, deal.ref, outcome, token, at)];
  const accrual = deal.leadId ? await accrualOfLead(db, deal.environment, deal.leadId) : null;
  if (accrual && accrual.dealRef === deal.ref && withinClawback(accrual.createdAt, at, accrual.clawbackDays)) {
    const clawback = followUp(accrual, "clawed_back", at, { paymentReference: null, reason: outcome });
    const reference = await leadReference(db, accrual.leadId);
    statements.push(entryInsertWhere(db, clawback, dealChanged(deal.ref, token)), eventInsertWhere(db, commissionEvent(clawback, reference, "commission.clawed_back"), allOf(dealChanged(deal.ref, token), entryWritten(clawback.id)), at));
  }
  if ((await runGuardedBatch(db, statements)) !== 1) throw new Refusal("invalid_transition", "The deal's repayment outcome was already reported.");
  return deal.ref;
}
