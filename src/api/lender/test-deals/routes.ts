import { createRoute, z } from "@hono/zod-openapi";
import { TEST_DEAL_SIMULATED_EVENTS, TEST_DEAL_SIMULATED_EVENT_VALUES } from "../../../domain/deals/sandbox-business";
import { errorResponses, jsonBody, jsonContent, security } from "../../openapi";
import { LeadPatch } from "../../shared/schemas/lead";
import { Deal, DealRefParam } from "../../shared/schemas/deal";

const tags = ["Test deals"];

export const TestDealBody = LeadPatch.pick({ country: true, business: true, contact: true, funding: true, trading: true }).openapi("TestDealCreate", {
  description: "Optional: shapes the test business (same fields as a lead). Absent parts take a plausible UK business.",
});

export const createTestDealRoute = createRoute({
  method: "post",
  path: "/test/deals",
  summary: "Create a test deal",
  description:
    "A deal routed only to you, marked `test: true`, in your key's environment; fires `deal.created`. It behaves like any other deal (status, offers, messages). At most 10 exist at once per account and environment: the 11th is 422 `cap_exceeded`.",
  tags,
  security: security.lender,
  request: { body: { required: false, content: { "application/json": { schema: TestDealBody } } } },
  responses: { 201: jsonContent(Deal, "The test deal"), ...errorResponses("invalid_request", "cap_exceeded") },
});

export const deleteTestDealRoute = createRoute({
  method: "delete",
  path: "/test/deals/{ref}",
  summary: "Delete a test deal",
  description: "Only your own test deals; any other reference is 404.",
  tags,
  security: security.lender,
  request: { params: DealRefParam },
  responses: { 204: { description: "Deleted" }, ...errorResponses("not_found") },
});


export const TestDealSimulateBody = z
  .strictObject({
    event: z.enum(TEST_DEAL_SIMULATED_EVENT_VALUES).openapi({
      description: TEST_DEAL_SIMULATED_EVENTS.map((e) => `\`${e.value}\`: ${e.label}.`).join(" "),
      example: "request.fulfilled",
    }),
  })
  .openapi("TestDealSimulate", { example: { event: "request.fulfilled" } });

export const simulateTestDealRoute = createRoute({
  method: "post",
  path: "/test/deals/{ref}/simulate",
  summary: "Make the business act on a test deal",
  description:
    "The business behind your test deal acts through the client hub's own code and fires the lender event it names, as a real business would (same event, same webhooks): " +
    "`offer.accepted` accepts the deal's current offer (as the partner would), `message.created` replies to you, `request.fulfilled` uploads a PDF answering the oldest document request still waiting (else the oldest open one), `document.removed` takes back the newest file it sent (409 `invalid_transition` when there is none it could), " +
    "`deal.account_submitted` submits the payout account and `deal.agreement_signed` signs the agreement you uploaded. " +
    "Answers the deal after the step. Only your own test deals: any other reference (a routed deal, another account's) is 404. " +
    "409 `no_open_request` when no document request is open; 409 `offer_not_acceptable` when there is no current offer to accept; " +
    "409 `invalid_transition` with the hub's own reason when the business could not take the step now (e.g. account details before an offer is accepted, signing before the agreement is uploaded).",
  tags,
  security: security.lender,
  request: { params: DealRefParam, body: jsonBody(TestDealSimulateBody) },
  responses: { 200: jsonContent(Deal, "The test deal after the step"), ...errorResponses("invalid_request", "not_found", "no_open_request", "offer_not_acceptable", "invalid_transition") },
});
