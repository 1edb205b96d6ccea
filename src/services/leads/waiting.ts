/** The partner overview's "Waiting on you" and "Waiting on your client", and a lead's "What the lender needs" (issue 45 item 2). */
import { hubLinksOfPartner, openRequestsOfPartner, presentedOffersOfPartner } from "../../db/leads/waiting";
import type { Scope } from "../../domain/identity/caller";
import { LEAD_STATES_OPEN_FOR_OFFERS } from "../../domain/deals/status";
import { LEAD_STATES_WITH_LIVE_LINK, lenderNeeds, waitingLists } from "../../domain/portal/partner-waiting";
import { dealsOfLead } from "../../db/hub/client-hub";
import { messagesOfDeal } from "../../db/deals/messages";
import { requestsOfLead } from "../../db/documents/requests";
import { requireLead } from "./leads";
import type { Deps } from "../deps";

export async function waitingOnPartner(deps: Deps, scope: Scope) {
  const { db } = deps;
  const [offers, requests, links] = await Promise.all([
    presentedOffersOfPartner(db, scope, LEAD_STATES_OPEN_FOR_OFFERS),
    openRequestsOfPartner(db, scope),
    hubLinksOfPartner(db, scope, LEAD_STATES_WITH_LIVE_LINK),
  ]);
  return waitingLists({ offers, requests, links }, deps.clock().getTime());
}

/** The lead page's "What the lender needs": the lead is the caller's (404 otherwise), then its options' requests and threads. */
export async function lenderNeedsOfLead(deps: Deps, scope: Scope, leadId: string) {
  const { db } = deps;
  const lead = await requireLead(deps, scope, leadId);
  const [deals, requests] = await Promise.all([dealsOfLead(db, lead.id), requestsOfLead(db, lead.id)]);
  const threads = await Promise.all(deals.map((d) => messagesOfDeal(db, d.ref)));
  return lenderNeeds(deals, requests, threads);
}
