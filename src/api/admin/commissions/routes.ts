import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, jsonBody, jsonContent } from "../../openapi";
import { CommissionQuery, Month, OperatorCommissionEntry, OperatorCommissionList, OperatorTotals, PaymentBody, Terms, TermsBody } from "../../shared/schemas/commission";

const admin = [{ adminToken: [] }];
const tags = ["Commission"];
const ProductParams = z.object({
  lender_id: z.string().max(64).openapi({ param: { name: "lender_id", in: "path" }, description: "The lender organisation." }),
  product_id: z.string().max(64).openapi({ param: { name: "product_id", in: "path" }, description: "The lender's panel product id." }),
});
const EntryParam = z.object({ id: z.string().max(64).openapi({ param: { name: "id", in: "path" } }) });
const Environment = z.enum(["sandbox", "live"]).default("live");

export const putTermsRoute = createRoute({
  method: "put",
  path: "/commission-terms/{lender_id}/{product_id}",
  summary: "Set commission terms for a product",
  description:
    "Adds a change to the product's terms for one partner (`partner_organisation_id`) or as the product's default (null), in one currency, taking effect now. Earlier changes are kept: a deal is priced by the terms in force when its offer was accepted, so a change never alters an accrued amount. `percentage` takes `rate_bps`, `flat` takes `flat_amount`; `min_amount` and `max_amount` bound either. Amounts are minor units. An unknown lender or product is 404; an unknown partner or terms that contradict themselves are 400 naming the field. [Terms](/docs/guides/commission#terms).",
  tags,
  security: admin,
  request: { params: ProductParams, body: jsonBody(TermsBody) },
  responses: { 201: jsonContent(Terms, "The change, now in force"), ...errorResponses("invalid_request", "not_found", "unauthorized") },
});

export const getTermsRoute = createRoute({
  method: "get",
  path: "/commission-terms/{lender_id}/{product_id}",
  summary: "Read a product's commission terms and their history",
  description: "Every change of the product's terms (all partners and currencies), newest first, each with `effective_at` and whether it is `in_force` now.",
  tags,
  security: admin,
  request: { params: ProductParams },
  responses: { 200: jsonContent(z.object({ terms: z.array(Terms) }), "The terms"), ...errorResponses("not_found", "unauthorized") },
});

export const listEntriesRoute = createRoute({
  method: "get",
  path: "/commissions",
  summary: "List every commission entry",
  description: "The ledger of one environment, newest first, optionally one partner's; filters `state` and `month`; keyset-paginated.",
  tags,
  security: admin,
  request: { query: CommissionQuery.extend({ environment: Environment, partner_organisation_id: z.string().max(64).optional() }) },
  responses: { 200: jsonContent(OperatorCommissionList, "A page of entries"), ...errorResponses("invalid_request", "unauthorized") },
});

export const totalsRoute = createRoute({
  method: "get",
  path: "/commissions/totals",
  summary: "Commission totals per partner and month",
  description: "Per partner, month and currency: the sum of each kind and the net (what a partner's statement of that month totals).",
  tags,
  security: admin,
  request: { query: z.object({ environment: Environment, month: Month.optional() }) },
  responses: { 200: jsonContent(OperatorTotals, "The totals"), ...errorResponses("invalid_request", "unauthorized") },
});

export const payEntryRoute = createRoute({
  method: "post",
  path: "/commissions/{id}/payments",
  summary: "Mark an accrued entry paid",
  description:
    "Writes a `paid` entry (the accrual's amount, negative) with the payment reference, and tells the partner (`commission.paid`). The accrual itself never changes. Only an `accrued` entry is paid, once; one already paid or clawed back is 409 `conflict`. `environment` (query, default live) names the ledger.",
  tags,
  security: admin,
  request: { params: EntryParam, query: z.object({ environment: Environment }), body: jsonBody(PaymentBody) },
  responses: { 201: jsonContent(OperatorCommissionEntry, "The paid entry"), ...errorResponses("invalid_request", "not_found", "unauthorized", "conflict") },
});
