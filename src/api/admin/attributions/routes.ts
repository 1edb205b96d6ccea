import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, jsonBody, jsonContent } from "../../openapi";
import { Timestamp } from "../../shared/schemas/common";

const admin = [{ adminToken: [] }];
const IdParam = z.object({ id: z.string().max(64).openapi({ param: { name: "id", in: "path" } }) });

const Attribution = z
  .object({
    id: z.string().openapi({ example: "att_k3m9q7x2p4w8r6t1y5u0" }),
    environment: z.enum(["sandbox", "live"]),
    company_key: z.string().openapi({ description: "The company's one identity: market, key kind and normalised number.", example: "GB:register:SC012345" }),
    lead_id: z.string(),
    organisation_id: z.string().openapi({ description: "The introducing partner." }),
    since: Timestamp,
    active: z.boolean(),
    released_at: Timestamp.nullable(),
    release_reason: z.string().nullable(),
  })
  .openapi("Attribution", { description: "Which routed lead introduced a company ([Attribution](/docs/guides/leads#attribution))." });

export const listAttributionsRoute = createRoute({
  method: "get",
  path: "/attributions",
  summary: "Active attributions",
  description: "The attributions that hold now in one environment, newest first: each company's introducing lead and partner.",
  tags: ["Operator"],
  security: admin,
  request: {
    query: z.object({
      environment: z.enum(["sandbox", "live"]).default("live"),
      limit: z.coerce.number().int().min(1).max(100).default(100),
    }),
  },
  responses: { 200: jsonContent(z.object({ attributions: z.array(Attribution) }), "The active attributions"), ...errorResponses("invalid_request", "unauthorized") },
});

export const releaseAttributionRoute = createRoute({
  method: "post",
  path: "/attributions/{id}/release",
  summary: "Release an attribution",
  description:
    "Ends an attribution before its time, with a reason, recorded in the introducing partner's audit log (`attribution.released`). A new lead for the company can then be routed. An attribution that no longer holds: 409 `conflict`.",
  tags: ["Operator"],
  security: admin,
  request: { params: IdParam, body: jsonBody(z.strictObject({ reason: z.string().trim().min(1).max(500).openapi({ example: "Introducer agreed to hand over the client." }) })) },
  responses: { 200: jsonContent(Attribution, "The released attribution"), ...errorResponses("invalid_request", "not_found", "unauthorized", "conflict") },
});
