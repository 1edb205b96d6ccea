import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, jsonBody, jsonContent } from "../../openapi";
import { AllowedOrigins, KeyType } from "../../shared/schemas/api-key";
import { PlainText, Timestamp } from "../../shared/schemas/common";

const KeySummary = z.object({
  id: z.string(),
  client_id: z.string(),
  environment: z.enum(["sandbox", "live"]),
  type: z.enum(["secret", "publishable"]),
  allowed_origins: z.array(z.string()),
  created_at: Timestamp,
  revoked_at: Timestamp.nullable(),
});

export const Organisation = z
  .object({ id: z.string(), name: z.string(), kind: z.enum(["partner", "lender"]), created_at: Timestamp })
  .openapi("Organisation");
export const OrganisationDetail = Organisation.extend({ keys: z.array(KeySummary) }).openapi("OrganisationDetail");

export const CreateOrganisation = z
  .strictObject({ name: PlainText(200, { min: 1 }), kind: z.enum(["partner", "lender"]) })
  .openapi("CreateOrganisation");

export const CreateKey = z
  .strictObject({
    environment: z.enum(["sandbox", "live"]),
    type: KeyType.default("secret"),
    allowed_origins: AllowedOrigins.default([]),
  })
  .openapi("CreateKey");

export const IssuedKey = z
  .object({
    id: z.string(),
    key: z.string().openapi({ description: "The whole key. Shown once: only its hash is stored." }),
    client_id: z.string(),
    environment: z.enum(["sandbox", "live"]),
    type: z.enum(["secret", "publishable"]),
    allowed_origins: z.array(z.string()),
    created_at: Timestamp,
  })
  .openapi("IssuedKey");

const IdParam = z.object({ id: z.string().max(64).openapi({ param: { name: "id", in: "path" } }) });
const admin = [{ adminToken: [] }];

export const createOrganisationRoute = createRoute({
  method: "post",
  path: "/organisations",
  summary: "Create a partner or lender organisation",
  tags: ["Operator"],
  security: admin,
  request: { body: jsonBody(CreateOrganisation) },
  responses: { 201: jsonContent(Organisation, "Created"), ...errorResponses("invalid_request", "unauthorized") },
});

export const listOrganisationsRoute = createRoute({
  method: "get",
  path: "/organisations",
  summary: "List organisations",
  tags: ["Operator"],
  security: admin,
  responses: { 200: jsonContent(z.object({ organisations: z.array(Organisation) }), "Organisations"), ...errorResponses("unauthorized") },
});

export const getOrganisationRoute = createRoute({
  method: "get",
  path: "/organisations/{id}",
  summary: "One organisation with its keys (never the keys themselves)",
  tags: ["Operator"],
  security: admin,
  request: { params: IdParam },
  responses: { 200: jsonContent(OrganisationDetail, "The organisation"), ...errorResponses("not_found", "unauthorized") },
});

export const createKeyRoute = createRoute({
  method: "post",
  path: "/organisations/{id}/keys",
  summary: "Issue an API key",
  description: "Partner organisations hold secret and publishable keys, lenders secret keys. The key is returned once.",
  tags: ["Operator"],
  security: admin,
  request: { params: IdParam, body: jsonBody(CreateKey) },
  responses: { 201: jsonContent(IssuedKey, "The key, shown once"), ...errorResponses("invalid_request", "not_found", "unauthorized") },
});

export const revokeKeyRoute = createRoute({
  method: "delete",
  path: "/keys/{client_id}",
  summary: "Revoke a key with immediate effect",
  description: "The next request with the key, or with a token minted from it, gets 401 `unauthorized`.",
  tags: ["Operator"],
  security: admin,
  request: { params: z.object({ client_id: z.string().max(100).openapi({ param: { name: "client_id", in: "path" } }) }) },
  responses: { 204: { description: "Revoked" }, ...errorResponses("not_found", "unauthorized") },
});
