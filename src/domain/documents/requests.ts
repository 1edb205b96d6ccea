/** The lender's document requests: when a deal takes them. Pure. */

/** Deal statuses on which a lender can no longer ask for documents: the deal is over. */
export const REQUEST_CLOSED_DEAL_STATUSES = ["declined", "funded"] as const;

export const dealTakesRequests = (deal: { status: string }) => !(REQUEST_CLOSED_DEAL_STATUSES as readonly string[]).includes(deal.status);
