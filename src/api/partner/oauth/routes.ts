import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, jsonContent } from "../../openapi";

export const TokenRequest = z
  .object({
    grant_type: z.string().openapi({ example: "client_credentials", description: "Only `client_credentials`." }),
    client_id: z.string().openapi({ description: "The key prefix and key id shown in the portal (`rfs_ptr_live_…`)." }),
    client_secret: z.string().openapi({ description: "The full API key." }),
  })
  .openapi("TokenRequest");

export const TokenResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal("Bearer"),
    expires_in: z.number().int().openapi({ example: 3600 }),
    scope: z.string().openapi({ example: "partner" }),
    environment: z.enum(["sandbox", "live"]),
  })
  .openapi("TokenResponse");

export const issueToken = createRoute({
  method: "post",
  path: "/oauth/token",
  summary: "Exchange an API key for a one-hour bearer token",
  description:
    "Form-encoded or JSON. No authentication. The token carries the key's environment and stops working when the key is revoked. A correct client_secret's exchanges are limited per client_id (120 a minute, as every key); wrong secrets are counted against the sender's address, never against the client_id, so knowing a client_id blocks nothing. Any body it cannot read, another media type included, is 400 `invalid_request` (as OAuth clients expect, RFC 6749 section 5.2), never 415.",
  tags: ["Authentication"],
  request: {
    body: {
      required: true,
      content: {
        "application/x-www-form-urlencoded": { schema: TokenRequest },
        "application/json": { schema: TokenRequest },
      },
    },
  },
  responses: {
    200: jsonContent(TokenResponse, "A bearer token"),
    ...errorResponses("invalid_request", "unsupported_grant_type", "unauthorized", "payload_too_large", "rate_limited", "service_unavailable", "service_misconfigured"),
  },
});
