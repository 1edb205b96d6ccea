/** The outbox events a deal change emits: lender events about the deal, partner events about the lead behind it. */
import type { NewEvent } from "../../db/webhooks/events";
import type { Deal } from "../../domain/deals/types";
export const lenderEvent = (deal: Deal, event: string, detail: Record<string, unknown> = {}): NewEvent => ({
  organisationId: deal.lenderOrganisationId,
  environment: deal.environment,
  api: "lender",
  event,
  subjectType: "deal",
  subjectId: deal.ref,
  test: deal.test,
  detail,
});

/**
 * Partner events for a lead go to the partner that owns it; the routing record
 * names it. The detail carries the lead's reference and new state, like every
 * other lead event.
 */
export const partnerEvent = (deal: Deal, partnerOrganisationId: string, reference: string | null, event: string, detail: Record<string, unknown> = {}): NewEvent => ({
  organisationId: partnerOrganisationId,
  environment: deal.environment,
  api: "partner",
  event,
  subjectType: "lead",
  subjectId: deal.leadId!,
  detail: { reference, state: event.replace(/^lead\./, ""), ...detail },
});
