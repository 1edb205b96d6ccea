/**
 * What needs the partner today and what waits on its client (issue 45 item 2): the overview's two
 * lists. Pure: the windows, and which held thing belongs to which list.
 */
import { hubLinkExpiresAt } from "../hub/link";

/** An offer expiring within this many days is "about to expire". */
const OFFER_EXPIRY_SOON_DAYS = 3;
/** A client link expiring within this many days is "about to expire": a new one is one click away. */
const LINK_EXPIRY_SOON_DAYS = 7;
/** Lead states whose client link still matters (the hub is read-only after an outcome). */
export const LEAD_STATES_WITH_LIVE_LINK = ["draft", "submitted", "matched", "offers_available", "offer_accepted"] as const;

const DAY_MS = 86_400_000;

export interface WaitingLead {
  leadId: string;
  reference: string;
  businessName: string | null;
}

export interface Waiting {
  /** Offers the partner can accept or decline for the client. */
  offersToAnswer: (WaitingLead & { offers: number; soonestExpiry: string | null; expiringSoon: boolean })[];
  /** Client links that stop working soon. */
  linksExpiring: (WaitingLead & { expiresAt: string })[];
  /** Document requests the lender made that the client has not answered. */
  requestsOpen: (WaitingLead & { requests: number; since: string })[];
}

type Row = { leadId: string; reference: string; business: { name?: string | null } | null };
const leadOf = (r: Row): WaitingLead => ({ leadId: r.leadId, reference: r.reference, businessName: r.business?.name ?? null });

export function waitingLists(
  rows: {
    offers: (Row & { expiresAt: string | null })[];
    requests: (Row & { requests: number; since: string })[];
    links: (Row & { issuedAt: string; generation: number })[];
  },
  now: number,
): Waiting {
  const byLead = new Map<string, Waiting["offersToAnswer"][number]>();
  for (const o of rows.offers) {
    const held = byLead.get(o.leadId) ?? { ...leadOf(o), offers: 0, soonestExpiry: null, expiringSoon: false };
    held.offers += 1;
    if (o.expiresAt && (held.soonestExpiry === null || o.expiresAt < held.soonestExpiry)) held.soonestExpiry = o.expiresAt;
    held.expiringSoon = held.soonestExpiry !== null && Date.parse(held.soonestExpiry) - now <= OFFER_EXPIRY_SOON_DAYS * DAY_MS;
    byLead.set(o.leadId, held);
  }
  const linksExpiring = rows.links
    .map((l) => ({ ...leadOf(l), expiresAt: hubLinkExpiresAt(l) }))
    .filter((l) => {
      const left = Date.parse(l.expiresAt) - now;
      return left > 0 && left <= LINK_EXPIRY_SOON_DAYS * DAY_MS;
    })
    .sort((a, b) => a.expiresAt.localeCompare(b.expiresAt));
  // Offers about to expire first: they are what is lost by waiting.
  const offersToAnswer = [...byLead.values()].sort((a, b) => Number(b.expiringSoon) - Number(a.expiringSoon) || (a.soonestExpiry ?? "9999").localeCompare(b.soonestExpiry ?? "9999"));
  return { offersToAnswer, linksExpiring, requestsOpen: rows.requests.map((r) => ({ ...leadOf(r), requests: Number(r.requests), since: r.since })) };
}

/**
 * What the lenders a lead was routed to have asked of the client, per option ("Option 1" in routing
 * order, as the Lead's `outcomes`): each document request by its list item and state, and the shape of
 * the message thread (who wrote last, when). Never a provider's name, nor the lender's free text (a
 * request's note, a message's body, an offer's notes), which may name it: the partner reads those only
 * if the client shows them (docs/portal.md, "What the lender needs").
 */
export interface OptionNeeds {
  option: string;
  requests: { id: string; itemType: string; documentType: string; status: string; requestedAt: string; fileCount: number }[];
  messages: { fromLender: number; fromClient: number; lastFrom: "lender" | "client" | null; lastAt: string | null };
}

export function lenderNeeds(
  deals: readonly { ref: string }[],
  requests: readonly { id: string; dealRef: string; itemType: string; documentType: string; status: string; requestedAt: string; fileCount: number }[],
  threads: readonly (readonly { direction: "lender_to_borrower" | "borrower_to_lender"; createdAt: string }[])[],
): OptionNeeds[] {
  return deals
    .map((deal, i) => {
      const thread = threads[i] ?? [];
      const last = thread.at(-1) ?? null;
      return {
        option: `Option ${i + 1}`,
        requests: requests.filter((r) => r.dealRef === deal.ref).map(({ id, itemType, documentType, status, requestedAt, fileCount }) => ({ id, itemType, documentType, status, requestedAt, fileCount })),
        messages: {
          fromLender: thread.filter((m) => m.direction === "lender_to_borrower").length,
          fromClient: thread.filter((m) => m.direction === "borrower_to_lender").length,
          lastFrom: last ? (last.direction === "lender_to_borrower" ? ("lender" as const) : ("client" as const)) : null,
          lastAt: last?.createdAt ?? null,
        },
      };
    })
    .filter((o) => o.requests.length > 0 || o.messages.lastFrom !== null);
}
