import { database } from "../../db/client";
import { findKeyById } from "../../db/keys";
import { findOrganisation } from "../../db/organisations";
import { ApiError } from "../../lib/errors";
import type { Router } from "../../lib/router";
import { getMe } from "./routes";

export function registerMeRoutes(router: Router, api: "partner" | "lender" = "partner") {
  router.openapi(getMe(api), async (c) => {
    const caller = c.get("caller");
    const db = database(c.env.DB);
    const [organisation, key] = await Promise.all([findOrganisation(db, caller.organisationId), findKeyById(db, caller.keyId)]);
    if (!organisation || !key) throw new ApiError("not_found", "The caller's organisation no longer exists.");
    return c.json(
      {
        organisation: { id: organisation.id, name: organisation.name, kind: organisation.kind },
        environment: caller.environment,
        livemode: caller.environment === "live",
        key: { client_id: caller.clientId, type: caller.keyKind === "publishable" ? ("publishable" as const) : ("secret" as const), created_at: key.createdAt },
        authenticated_with: caller.via,
        host: c.get("sandboxHost") ? ("sandbox" as const) : ("production" as const),
        rate_limit: { limit: Number(c.env.RATE_LIMIT_PER_MINUTE) || 120, window_seconds: 60 },
      },
      200,
    );
  });
}
