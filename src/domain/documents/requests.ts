/** The lender's document requests: when a deal takes them. Pure. */
import type { DealStatus } from "../deals/types";

/** Deal statuses on which a lender can no longer ask for documents: the deal is over. */
export const REQUEST_CLOSED_DEAL_STATUSES = ["declined", "funded"] as const satisfies readonly DealStatus[];

export const dealTakesRequests = (deal: { status: DealStatus }) => !(REQUEST_CLOSED_DEAL_STATUSES as readonly DealStatus[]).includes(deal.status);
