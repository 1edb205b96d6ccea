/**
 * `GET /health`: the liveness probe of load balancers and monitors, and the
 * floor benchmarks measure against. No credentials and no storage call (no D1,
 * no Durable Object): it is mounted ahead of every middleware that could make
 * one, and ahead of the configuration check, so a probe says whether the Worker
 * runs, not whether it is configured.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, jsonContent } from "../openapi";
import type { Router } from "../router";
import { HEALTH_PATH } from "./probe";

export { HEALTH_PATH, mountHealth } from "./probe";

const Health = z.object({ status: z.literal("ok") }).openapi("Health");

const healthRoute = createRoute({
  method: "get",
  path: HEALTH_PATH,
  summary: "Liveness probe",
  description:
    "200 `{\"status\": \"ok\"}` with no credentials and no storage call. Served at the root of the host (`/health`), not under the API's base path, on production and sandbox hosts alike.",
  tags: ["Operations"],
  // The probe sits at the host's root, outside this document's base path; "/" resolves against the document's own origin.
  servers: [{ url: "/" }],
  responses: { 200: jsonContent(Health, "The Worker is serving"), ...errorResponses() },
});

/** Lists the probe in an API's OpenAPI document (each document describes what its integrators can call). */
export function describeHealth(api: Router) {
  api.openAPIRegistry.registerPath(healthRoute);
}
