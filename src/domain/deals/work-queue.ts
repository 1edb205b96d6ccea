/**
 * The lender's work queue: which deals wait on the lender, and for what. Pure.
 * A deal waits on the lender when it is new (review it, make an offer), when
 * it is in review (make an offer or decline: it stays until one is done), when
 * the client uploaded a requested document or replied after the lender's last
 * message (that brings back a deal waiting on the business, issue 45 item 5),
 * when the business accepted an offer and no agreement is uploaded yet (with or
 * without its payout account given), and when the business signed and the
 * deal is not yet reported funded. A funded or declined deal waits on no one.
 */
import type { Deal } from "./types";

/** The stages of the queue, most advanced first: the deals closest to funding come first. */
export const WORK_STAGES = [
  { value: "signed", label: "Signed, awaiting funding", action: "Pay out, then report the deal funded with the amount." },
  { value: "account_given", label: "Account given", action: "Upload the agreement for the business to sign." },
  { value: "offer_accepted", label: "Offer accepted", action: "Upload the agreement; the business gives its payout account in the hub." },
  { value: "documents_arrived", label: "Documents arrived", action: "The client uploaded a requested document: read it (reading its files through the API hands them over) or waive the request." },
  { value: "client_replied", label: "Client replied", action: "The client wrote after your last message: read it and answer." },
  { value: "in_review", label: "In review: offer or decline", action: "Make an offer or decline the deal." },
  { value: "new", label: "New", action: "Review the deal, then make an offer or decline it." },
] as const;

/** What the client did that the lender has not answered: an uploaded request, a message after the lender's last. */
export interface ClientSignals {
  documentsArrived: boolean;
  clientReplied: boolean;
}

const NO_SIGNALS: ClientSignals = { documentsArrived: false, clientReplied: false };

type WorkStage = (typeof WORK_STAGES)[number]["value"];

type Staged = Pick<Deal, "status" | "lenderStatus" | "agreementUploadedAt" | "accountSubmittedAt" | "signedAt">;

/** Whether the deal has an outcome (funded or declined, by the lender's report or the deal's own status). */
export const dealHasOutcome = (deal: Pick<Deal, "status" | "lenderStatus">) =>
  deal.lenderStatus === "funded" || deal.lenderStatus === "declined" || deal.status === "funded" || deal.status === "declined";

/** The stage the deal waits at for the lender's action, or null when it waits on someone else or is done. */
export function workStageOf(deal: Staged, signals: ClientSignals = NO_SIGNALS): WorkStage | null {
  if (dealHasOutcome(deal)) return null;
  if (deal.signedAt !== null) return "signed";
  if (deal.status === "offer_accepted" && deal.agreementUploadedAt === null) return deal.accountSubmittedAt !== null ? "account_given" : "offer_accepted";
  if (signals.documentsArrived) return "documents_arrived";
  if (signals.clientReplied) return "client_replied";
  if (deal.lenderStatus === "in_review") return "in_review";
  if (deal.lenderStatus === "new") return "new";
  return null;
}

/** The deals grouped by stage, in the stage order; each group oldest first (as given). Deals at no stage are left out. */
export function groupByStage<T extends Staged & { signals?: ClientSignals }>(deals: readonly T[]): { stage: (typeof WORK_STAGES)[number]; deals: T[] }[] {
  return WORK_STAGES.map((stage) => ({ stage, deals: deals.filter((d) => workStageOf(d, d.signals) === stage.value) }));
}

/** A deal's age in whole days, as a person reads it ("today", "1 day", "12 days"). */
export function ageInWords(createdAt: string, now: string): string {
  const days = Math.max(0, Math.floor((Date.parse(now) - Date.parse(createdAt)) / 86_400_000));
  return days === 0 ? "today" : days === 1 ? "1 day" : `${days} days`;
}
