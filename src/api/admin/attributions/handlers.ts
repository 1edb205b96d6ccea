import type { Router } from "../../router";
import { listAttributions, releaseAttribution } from "../../../services/leads/attributions";
import { listAttributionsRoute, releaseAttributionRoute } from "./routes";

export function registerAttributionRoutes(router: Router) {
  router.openapi(listAttributionsRoute, async (c) => {
    const { environment, limit } = c.req.valid("query");
    return c.json({ attributions: await listAttributions(c.get("deps"), environment, limit) }, 200);
  });

  router.openapi(releaseAttributionRoute, async (c) => {
    return c.json(await releaseAttribution(c.get("deps"), c.req.valid("param").id, c.req.valid("json").reason), 200);
  });
}
