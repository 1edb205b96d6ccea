import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonContent, security } from "../../openapi";
import { CommissionList, CommissionQuery, CommissionStatement, MonthParam } from "../../shared/schemas/commission";

const tags = ["Commission"];

export const listCommissionsRoute = createRoute({
  method: "get",
  path: "/commissions",
  summary: "List your commission entries",
  description:
    "The ledger of what you earn as introducer, newest first, in the key's environment, keyset-paginated through `next_cursor` (valid only with the same `state` and `month`). Entries are never changed: a payment or a clawback is a new entry. Each names the funded option's product family, never the provider. [Commission](/docs/guides/commission).",
  tags,
  security: security.partner,
  request: { query: CommissionQuery },
  responses: { 200: jsonContent(CommissionList, "A page of entries"), ...errorResponses("invalid_request") },
});

export const statementRoute = createRoute({
  method: "get",
  path: "/commissions/statements/{month}",
  summary: "Read a monthly commission statement",
  description:
    "Every entry written in the month (UTC), oldest first, with totals per currency. `Accept: text/csv` answers the same statement as CSV: one line per entry, then one `total` line per currency whose `amount_minor` is the sum of the entry lines, equal to the sum of `GET /commissions?month=` for the month. [Statements](/docs/guides/commission#statements).",
  tags,
  security: security.partner,
  request: { params: MonthParam },
  responses: {
    200: {
      description: "The statement",
      content: {
        "application/json": { schema: CommissionStatement },
        "text/csv": { schema: { type: "string" as const, description: "The statement as CSV (RFC 4180, CRLF line ends)." } },
      },
    },
    ...errorResponses("invalid_request"),
  },
});
