import { serveDocument } from "../reference/document";
import type { Router } from "../router";

/** GET /admin/v1/openapi.json: the operator API, generated from the zod schemas its routes validate with. */
export function registerOperatorDocument(admin: Router, base: string) {
  admin.openAPIRegistry.registerComponent("securitySchemes", "adminToken", {
    type: "http",
    scheme: "bearer",
    description: "The Worker secret `ADMIN_TOKEN` (`wrangler secret put ADMIN_TOKEN`; `.dev.vars` locally).",
  });
  serveDocument(admin, "admin", (c) => ({
    openapi: "3.1.0",
    info: {
      title: "Referral Funding Service: operator API",
      version: "1.0.0",
      description:
        "For the service's operators: organisations, their keys, portal invitations and the lender panel. Every operation needs `Authorization: Bearer <ADMIN_TOKEN>`; where `ADMIN_TOKEN` is not configured the whole API, this document included, answers 404.",
    },
    servers: [{ url: new URL(base, c.req.url).toString() }],
  }));
}
