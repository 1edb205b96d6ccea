/**
 * What the hub's overview puts first: what the business has to do now (review an offer, upload,
 * reply, give the payout account, sign), which deals it still shows once an offer is accepted, and
 * whether every offer it had was declined. Pure: the service reads, this decides, the page words it.
 */
import type { Deal, Offer } from "../deals/types";
import type { DocumentRequest } from "../documents/types";
import { offerStanding } from "./offer-standing";

export type ToDoKind = "review_offer" | "upload" | "reply" | "give_account" | "sign";

/** One thing to do, with the hub path (relative to the link's base) where it is done. */
export interface ToDo {
  kind: ToDoKind;
  /** What it is about, in the business's words (an offer's label, a request's label, a deal's label). */
  about: string;
  path: string;
}

interface ToDoDeal {
  deal: Pick<Deal, "ref" | "status" | "accountSubmittedAt" | "agreementUploadedAt" | "signedAt">;
  label: string;
  /** The latest message on the deal came from the funding provider: the business has not answered it yet. */
  awaitingReply: boolean;
}

/** The deal whose offer the business accepted, if any: from then on the hub is about that deal alone. */
function acceptedDealRef(offers: readonly Pick<Offer, "state" | "dealRef">[], deals: readonly Pick<Deal, "ref" | "status">[]): string | null {
  const accepted = offers.find((o) => o.state === "accepted" && o.dealRef);
  if (accepted?.dealRef) return accepted.dealRef;
  return deals.find((d) => d.status === "offer_accepted")?.ref ?? null;
}

/**
 * The overview's records once an offer is accepted: the accepted deal, its offer and its requests
 * only (the other providers' deals closed when it was accepted, and listing them would read as
 * still open). Before that, everything.
 */
export function shownOnOverview<O extends Pick<Offer, "state" | "dealRef">, D extends { deal: Pick<Deal, "ref" | "status"> }, R extends { request: Pick<DocumentRequest, "dealRef"> }>(
  offers: readonly O[],
  deals: readonly D[],
  requests: readonly R[],
) {
  const accepted = acceptedDealRef(
    offers,
    deals.map((d) => d.deal),
  );
  if (!accepted) return { accepted: null, offers: [...offers], deals: [...deals], requests: [...requests], hidden: 0 };
  const shownDeals = deals.filter((d) => d.deal.ref === accepted);
  return {
    accepted,
    offers: offers.filter((o) => o.state === "accepted" || o.dealRef === accepted),
    deals: shownDeals,
    requests: requests.filter((r) => r.request.dealRef === accepted),
    hidden: deals.length - shownDeals.length,
  };
}

/**
 * Whether a deal can still reach completion (account, agreement, signature), so the overview links its
 * Completion page: not once the provider declined it, nor once the business declined every offer the
 * deal made. A deal with no offer yet can (an agreement may arrive before the offer is accepted).
 */
export function completionReachable(deal: Pick<Deal, "ref" | "status">, offers: readonly Pick<Offer, "state" | "dealRef">[]): boolean {
  return deal.status !== "declined" && !everyOfferDeclined(offers.filter((o) => o.dealRef === deal.ref));
}

/** Every offer the business had, it declined: the overview says so, rather than an empty to-do that reads as waiting. */
export function everyOfferDeclined(offers: readonly Pick<Offer, "state">[]): boolean {
  return offers.length > 0 && offers.every((o) => o.state === "declined");
}

/**
 * The to-do list, most pressing first: sign, give the account, upload, reply, then review an open
 * offer. Nothing on a read-only hub (the application is closed: nothing can be done there).
 */
export function hubToDo(input: {
  offers: readonly Offer[];
  leadState: string;
  requests: readonly { request: Pick<DocumentRequest, "id" | "label" | "status"> }[];
  deals: readonly ToDoDeal[];
  readOnly: boolean;
  now: Date;
}): ToDo[] {
  if (input.readOnly) return [];
  const items: ToDo[] = [];
  for (const { deal, label } of input.deals) {
    if (deal.status !== "offer_accepted" || deal.signedAt) continue;
    if (!deal.accountSubmittedAt) items.push({ kind: "give_account", about: label, path: `/deals/${deal.ref}/completion` });
    else if (deal.agreementUploadedAt) items.push({ kind: "sign", about: label, path: `/deals/${deal.ref}/completion` });
  }
  for (const { request } of input.requests) {
    // An uploaded request waits on the provider, not on the business.
    if (request.status === "requested") items.push({ kind: "upload", about: request.label, path: `/requests/${request.id}` });
  }
  for (const { deal, label, awaitingReply } of input.deals) {
    if (awaitingReply) items.push({ kind: "reply", about: label, path: `/deals/${deal.ref}/messages` });
  }
  for (const offer of input.offers) {
    if (offerStanding(offer, input.leadState, input.now) === "open") items.push({ kind: "review_offer", about: offer.label, path: `/offers/${offer.id}` });
  }
  return items;
}
