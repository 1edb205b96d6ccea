import { createRoute, z } from "@hono/zod-openapi";
import { LEAD_STATE_VALUES } from "../../../domain/reference/values";
import { errorResponses, jsonBody, jsonContent, security } from "../../openapi";
import { ListLimit, Timestamp } from "../../shared/schemas/common";
import { LeadCreate } from "../../shared/schemas/lead";

const tags = ["Referrals"];

export const Referral = z
  .object({
    id: z.string().openapi({ format: "uuid" }),
    reference: z.string(),
    state: z.enum(LEAD_STATE_VALUES),
    matched_options: z.number().int().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("Referral");

export const ReferralList = z.object({ referrals: z.array(Referral), next_cursor: z.string().nullable() }).openapi("ReferralList");

export const ReferralQuery = z.object({
  limit: ListLimit,
  cursor: z.string().max(1000).optional(),
});

export const createReferralRoute = createRoute({
  method: "post",
  path: "/referrals",
  summary: "Refer a business into the service",
  description:
    "For a business you declined: the body is the partner API's lead-creation body. The lead is created in your key's environment, introduced by your organisation, and submitted at once to the rest of the panel (never back to you). 422 `missing_fields` when the market's mandatory fields are missing (nothing is created).",
  tags,
  security: security.lender,
  request: { body: jsonBody(LeadCreate) },
  responses: { 201: jsonContent(Referral, "The referral"), ...errorResponses("invalid_request", "missing_fields") },
});

export const listReferralsRoute = createRoute({
  method: "get",
  path: "/referrals",
  summary: "List your referrals",
  description: "Newest first; keyset-paginated through the opaque `next_cursor`. For reconciliation.",
  tags,
  security: security.lender,
  request: { query: ReferralQuery },
  responses: { 200: jsonContent(ReferralList, "A page of referrals"), ...errorResponses("invalid_request") },
});
