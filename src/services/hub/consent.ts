/**
 * The business withdraws its consent from its client hub: the hub link exists from the lead's
 * creation, so it reaches the draft before submission, the only time consent can be withdrawn (after
 * it, the application is with providers: docs/application-link.md, "Withdrawal"). The same service as the application link's done page, with `channel: "client_hub"`.
 */
import type { Lead } from "../../domain/leads/types";
import { Refusal } from "../../lib/refusal";
import { withdrawLeadConsent } from "../application-link/application-links";
import type { Deps } from "../deps";

/**
 * Withdraws the lead's consent, before submission only: a submitted lead's application is with funding
 * providers already (409 `lead_submitted`, in the business's words); no consent to withdraw is 409
 * `invalid_transition`. The write and `lead.consent_withdrawn` are one batch (services/leads `changeDraft`).
 */
export async function withdrawHubConsent(deps: Deps, lead: Lead) {
  if (lead.state !== "draft") {
    throw new Refusal("lead_submitted", "Your application was already sent to funding providers, so your consent can no longer be withdrawn here: ask your adviser.");
  }
  return withdrawLeadConsent(deps, { organisationId: lead.organisationId, environment: lead.environment }, lead.id, "client_hub");
}
