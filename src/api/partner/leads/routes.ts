import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, jsonBody, jsonContent, security } from "../../openapi";
import { IdempotencyHeader } from "../../shared/schemas/common";
import {
  Lead,
  LeadCreate,
  LeadIdParam,
  LeadList,
  LeadPatch,
  LeadQuery,
  SignificantPersonsPut,
  SignificantPersonsResult,
  SubmitResult,
} from "../../shared/schemas/lead";

import { HubLink } from "../../shared/schemas/hub-link";

const tags = ["Leads"];

const IfMatchHeader = z.object({
  "If-Match": z
    .string()
    .max(100)
    .optional()
    .openapi({
      description:
        'The lead\'s `ETag` as read (`"7"`; `W/"7"` too): the PATCH applies only to that version, else 412 `precondition_failed` and nothing is written. `*` or no header: applies to whatever is held.',
      example: '"7"',
    }),
});

const ETagHeader = { ETag: { schema: { type: "string" as const }, description: "The lead's version, quoted (`\"7\"`): send it back as `If-Match` on PATCH so a change made meanwhile is not overwritten." } };

export const createLeadRoute = createRoute({
  method: "post",
  path: "/leads",
  summary: "Open a lead",
  description:
    "Creates a draft lead in the caller's environment. `Idempotency-Key` is honoured: the same key with the same body within 24 hours answers the first response again (header `Idempotent-Replayed: true`); with another body it is 422 `idempotency_key_reused`.",
  tags,
  security: security.partner,
  request: {
    body: jsonBody(LeadCreate),
    headers: IdempotencyHeader,
  },
  responses: {
    201: { ...jsonContent(Lead, "The lead"), headers: { Location: { schema: { type: "string" }, description: "URL of the lead" } } },
    ...errorResponses("invalid_request", "unknown_code"),
  },
});

export const getLeadRoute = createRoute({
  method: "get",
  path: "/leads/{id}",
  summary: "Read a lead",
  tags,
  security: security.partner,
  request: { params: LeadIdParam },
  responses: { 200: { ...jsonContent(Lead, "The lead"), headers: ETagHeader }, ...errorResponses("invalid_request", "not_found") },
});

export const patchLeadRoute = createRoute({
  method: "patch",
  path: "/leads/{id}",
  summary: "Fill in a draft lead",
  description:
    "Only present fields change; nested objects merge key by key and `null` clears a key. `consent.text_version` must be a published version (else 422 `unknown_code`); with `consent.obtained: true` it writes `consent.receipt` (channel `partner_api`) and fires `lead.consent_captured`. 409 `lead_submitted` once submitted. With `If-Match` (the `ETag` of your read) the change applies only to that version of the lead: a lead changed meanwhile is 412 `precondition_failed`, nothing written.",
  tags,
  security: security.partner,
  request: { params: LeadIdParam, headers: IfMatchHeader, body: jsonBody(LeadPatch) },
  responses: {
    200: { ...jsonContent(Lead, "The lead"), headers: ETagHeader },
    ...errorResponses("invalid_request", "not_found", "lead_submitted", "conflict", "precondition_failed", "unknown_code"),
  },
});

export const putSignificantPersonsRoute = createRoute({
  method: "put",
  path: "/leads/{id}/significant-persons",
  summary: "Replace the lead's significant persons",
  description: "Replaces the whole held list, so a corrected entry never leaves the old one behind.",
  tags,
  security: security.partner,
  request: { params: LeadIdParam, body: jsonBody(SignificantPersonsPut) },
  responses: {
    200: jsonContent(SignificantPersonsResult, "The held list"),
    ...errorResponses("invalid_request", "not_found", "lead_submitted", "conflict"),
  },
});

export const submitLeadRoute = createRoute({
  method: "post",
  path: "/leads/{id}/submit",
  summary: "Submit a lead for matching",
  description:
    "Checks the market's mandatory fields (422 `missing_fields` with `missing`), then matches the lead with the same matcher prequalification uses: `matched` when at least one option matched (live: routed to each matched lender), else `out_of_scope` (the reasons are on the lead as `out_of_scope_reasons`). A sandbox lead is routed to no lender; its simulated offers are presented at once, so it answers `offers_available`. Submitting again answers the same state with `already_submitted: true` and routes nothing again. A lead whose business withdrew its consent (`consent.withdrawn_at`) is 422 `consent_required` until consent is given again. One business, one introducer: a company this partner already has an open submitted lead for is 409 `duplicate_lead` with `existing_lead_id` (the draft stays a draft); a company another partner's lead holds (open, or funded within the attribution window) answers 200 with the lead ended `out_of_scope`, its reason `already_introduced`, routed to no lender, naming no one.",
  tags,
  security: security.partner,
  request: { params: LeadIdParam, headers: IdempotencyHeader },
  responses: {
    200: jsonContent(SubmitResult, "The submission"),
    ...errorResponses("invalid_request", "not_found", "missing_fields", "consent_required", "conflict", "duplicate_lead"),
  },
});

export const renewLeadRoute = createRoute({
  method: "post",
  path: "/leads/{id}/renewals",
  summary: "Renew a funded lead",
  description:
    "Opens a new draft lead from a `funded` one, prefilled with its partner reference, channel, business, contact, funding, trading and significant persons, and carrying `renewal_of` (the funded lead's id). Consent is not carried over (a new application needs the applicant's consent again), nor are documents, offers, state or timeline. The funded lead lists it under `renewals`. A lead in any other state: 409 `lead_not_funded`. `Idempotency-Key` is honoured: a retry with the same key answers the first renewal again instead of opening another.",
  tags,
  security: security.partner,
  request: { params: LeadIdParam, headers: IdempotencyHeader },
  responses: {
    201: { ...jsonContent(Lead, "The renewal: a new draft lead"), headers: { Location: { schema: { type: "string" }, description: "URL of the new lead" } } },
    ...errorResponses("invalid_request", "not_found", "lead_not_funded"),
  },
});

export const listLeadsRoute = createRoute({
  method: "get",
  path: "/leads",
  summary: "List leads",
  description: "Newest first, scoped to the caller's account and environment; keyset-paginated through the opaque `next_cursor`.",
  tags,
  security: security.partner,
  request: { query: LeadQuery },
  responses: { 200: jsonContent(LeadList, "A page of leads"), ...errorResponses("invalid_request") },
});

export const rotateHubLinkRoute = createRoute({
  method: "post",
  path: "/leads/{id}/hub-link",
  summary: "Rotate the lead's client-hub link",
  description:
    "Issues a new client-hub link for the lead (valid 30 days; the lead's `upload_url` from now on). The previous link, and every hub session opened with it, stop working at once. Use it to renew an expired link or when a link went to the wrong person. Works in every lead state (the hub of a funded, declined or out-of-scope lead is read-only). `Idempotency-Key` is honoured: a retry with the same key answers the first rotation's link instead of rotating again. 404 for a lead outside the caller's account and environment.",
  tags,
  security: security.partner,
  request: { params: LeadIdParam, headers: IdempotencyHeader },
  responses: {
    200: jsonContent(HubLink, "The new link"),
    ...errorResponses("invalid_request", "not_found"),
  },
});
