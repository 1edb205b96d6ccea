import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonBody, jsonContent, security } from "../../openapi";
import { CommissionQuery, LenderCommissionList, RepaymentOutcomeBody } from "../../shared/schemas/commission";
import { Deal, DealRefParam } from "../../shared/schemas/deal";

export const listLenderCommissionsRoute = createRoute({
  method: "get",
  path: "/commissions",
  summary: "List the introducer commission you owe",
  description:
    "The commission ledger of your deals, newest first, in the key's environment: `accrued` when a deal funded (priced by the terms in force when its offer was accepted), `paid` once the operator paid the introducer, `clawed_back` after an early settlement or default within `clawback_days`. The sum of a deal's entries is what is still owed on it. Keyset-paginated; filters `state` and `month`. [Commission](/docs/guides/commission).",
  tags: ["Commission"],
  security: security.lender,
  request: { query: CommissionQuery },
  responses: { 200: jsonContent(LenderCommissionList, "A page of entries"), ...errorResponses("invalid_request") },
});

export const reportRepaymentOutcomeRoute = createRoute({
  method: "post",
  path: "/deals/{ref}/repayment-outcome",
  summary: "Report an early settlement or a default",
  description:
    "A funded deal was repaid early in full (`settled_early`) or defaulted (`defaulted`). `lender_status` stays `funded`; the deal's `commission.repayment_outcome` records it, once (a second report, or a deal not funded, is 409 `invalid_transition`). Within the accrual's `clawback_days` of the funding it writes a negative `clawed_back` commission entry and the introducer hears `commission.clawed_back`. [Clawback](/docs/guides/commission#clawback).",
  tags: ["Commission"],
  security: security.lender,
  request: { params: DealRefParam, body: jsonBody(RepaymentOutcomeBody) },
  responses: { 200: jsonContent(Deal, "The deal after the report"), ...errorResponses("invalid_request", "not_found", "invalid_transition") },
});
