import type { Router } from "../../router";
import { callerAccount } from "../../../services/identity/organisations";
import { getMe } from "./routes";

export function registerMeRoutes(router: Router, api: "partner" | "lender" = "partner") {
  router.openapi(getMe(api), async (c) => {
    const caller = c.get("caller");
    const { organisation, key } = await callerAccount(c.get("deps"), caller);
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
