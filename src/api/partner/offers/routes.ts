import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, jsonBody, jsonContent, security } from "../../openapi";
import { Lead, LeadIdParam, PartnerOffer } from "../../shared/schemas/lead";
import { OFFER_DECLINE_REASON_VALUES } from "../../../domain/reference/values";

const tags = ["Offers"];

export const OfferList = z
  .object({
    lead_id: z.string(),
    offers: z.array(PartnerOffer),
    simulated: z.boolean().openapi({ description: "True for sandbox leads: the offers are computed for integration testing." }),
    note: z.string(),
  })
  .openapi("OfferList");

export const Acceptance = z
  .object({ lead_id: z.string(), offer_id: z.string(), state: z.literal("accepted"), simulated: z.boolean() })
  .openapi("Acceptance");

export const listLeadOffersRoute = createRoute({
  method: "get",
  path: "/leads/{id}/offers",
  summary: "List the lead's current offers",
  description: "Current offers only (terms a lender replaced are not listed), labelled structurally; a provider is never named.",
  tags,
  security: security.partner,
  request: { params: LeadIdParam },
  responses: { 200: jsonContent(OfferList, "The offers"), ...errorResponses("not_found") },
});

const OfferParams = LeadIdParam.extend({ offerId: z.string().max(64).openapi({ param: { name: "offerId", in: "path" } }) });

export const acceptOfferRoute = createRoute({
  method: "post",
  path: "/leads/{id}/offers/{offerId}/acceptance",
  summary: "Accept an offer",
  description:
    "The offer must belong to the lead (else 404) and be presented and unexpired (else 409 `offer_not_acceptable`). The lead becomes `offer_accepted`, the other offers `closed`, and the lender is handed the acceptance exactly once, however often or concurrently this is called; a repeat answers the accepted state again. In the sandbox `simulated` is true and nothing reaches any lender.",
  tags,
  security: security.partner,
  request: { params: OfferParams },
  responses: { 200: jsonContent(Acceptance, "The acceptance"), ...errorResponses("not_found", "offer_not_acceptable") },
});

const OfferDeclineBody = z
  .strictObject({
    // A string, not an enum: a code outside the list is 422 `unknown_code` naming `reason_code`, like the lender's decline codes.
    reason_code: z.string().trim().min(1).max(64).openapi({ enum: [...OFFER_DECLINE_REASON_VALUES], description: "A value of the `offer-decline-reasons` enum list.", example: "found_elsewhere" }),
  })
  .openapi("OfferDeclineBody");

const OfferDeclineAnswer = z
  .object({
    lead_id: z.string(),
    offer: PartnerOffer,
    all_offers_declined: z.boolean().openapi({ description: "True when every current offer on the lead is now declined (the Lead says the same)." }),
    simulated: z.boolean(),
  })
  .openapi("OfferDecline");

export const declineOfferRoute = createRoute({
  method: "post",
  path: "/leads/{id}/offers/{offerId}/decline",
  summary: "Decline an offer for the business",
  description:
    "The business's own \"no\" to a presented offer, with a `reason_code` from `offer-decline-reasons` (`found_elsewhere`, `terms_not_suitable`, `no_longer_needed`, `other`; another code is 422 `unknown_code`). The offer becomes `declined`, the lender hears `offer.declined` and you `lead.offer_declined`, once however often this is called (a repeat answers the declined offer again). A declined offer can no longer be accepted (409 `offer_not_acceptable`). An offer not on the lead is 404; one that is not presented (accepted, closed, superseded) or whose lead no longer takes offers is 409 `invalid_transition`. The lead's state does not change: the lender may still offer new terms; `all_offers_declined` says when every current offer is declined.",
  tags,
  security: security.partner,
  request: { params: OfferParams, body: jsonBody(OfferDeclineBody) },
  responses: { 200: jsonContent(OfferDeclineAnswer, "The declined offer"), ...errorResponses("invalid_request", "not_found", "invalid_transition", "unknown_code") },
});

export const SimulateBody = z
  .strictObject({ event: z.enum(["offers", "decline", "fund"]).openapi({ description: "`offers` presents fresh simulated offers; `decline` declines the lead; `fund` funds an accepted lead." }) })
  .openapi("SimulateBody");

export const simulateRoute = createRoute({
  method: "post",
  path: "/sandbox/leads/{id}/simulate",
  summary: "Sandbox: move a lead along its states",
  description:
    "Sandbox keys only (a live key gets 403 `environment_mismatch`). Emits the partner events a live lead would. 409 `invalid_transition` when the move makes no sense in the lead's state.",
  tags: ["Sandbox"],
  security: security.partner,
  request: { params: LeadIdParam, body: jsonBody(SimulateBody) },
  responses: { 200: jsonContent(Lead, "The lead after the move"), ...errorResponses("invalid_request", "not_found", "invalid_transition") },
});
