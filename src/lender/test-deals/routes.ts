import { createRoute } from "@hono/zod-openapi";
import { AUTHENTICATED_ERRORS, errorResponses, jsonContent, security } from "../../lib/openapi";
import { LeadPatch } from "../../shared-api/schemas/lead";
import { Deal, DealRefParam } from "../deals/schemas";

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
  responses: { 201: jsonContent(Deal, "The test deal"), ...errorResponses("invalid_request", "cap_exceeded", ...AUTHENTICATED_ERRORS) },
});

export const deleteTestDealRoute = createRoute({
  method: "delete",
  path: "/test/deals/{ref}",
  summary: "Delete a test deal",
  description: "Only your own test deals; any other reference is 404.",
  tags,
  security: security.lender,
  request: { params: DealRefParam },
  responses: { 204: { description: "Deleted" }, ...errorResponses("not_found", ...AUTHENTICATED_ERRORS) },
});

