import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, jsonContent, security } from "../../openapi";
import { Timestamp } from "../schemas/common";

export const Identity = z
  .object({
    organisation: z.object({ id: z.string(), name: z.string(), kind: z.enum(["partner", "lender"]) }),
    environment: z.enum(["sandbox", "live"]).openapi({ description: "Decided by the credential, never by the request." }),
    livemode: z.boolean(),
    key: z.object({
      client_id: z.string(),
      type: z.enum(["secret", "publishable"]),
      created_at: Timestamp,
    }),
    authenticated_with: z.enum(["bearer", "api_key"]),
    host: z.enum(["sandbox", "production"]).openapi({ description: "A sandbox host accepts sandbox keys only." }),
    rate_limit: z.object({ limit: z.number().int(), window_seconds: z.number().int() }),
  })
  .openapi("Identity");

export const getMe = (api: keyof typeof security) => createRoute({
  method: "get",
  path: "/me",
  summary: "Who am I: the caller's organisation, key and environment",
  description: "The first call to make: confirms the credential works and tells which environment it acts in.",
  tags: ["Identity"],
  security: security[api],
  responses: { 200: jsonContent(Identity, "The caller's identity"), ...errorResponses() },
});
