import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, jsonBody, jsonContent, security } from "../../openapi";
import { Lead, LeadIdParam, PartnerOffer } from "../../shared/schemas/lead";

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
