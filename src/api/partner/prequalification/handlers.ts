import type { Router } from "../../router";
import { currentPanel } from "../../../services/panel/panel-cache";
import { prequalify } from "../../../services/panel/prequalification";
import { prequalifyRoute } from "./routes";

export function registerPrequalificationRoutes(router: Router) {
  router.openapi(prequalifyRoute, async (c) => {
    const panel = await currentPanel(c.get("deps"));
    // Indicative and per-request: never cached by a browser or a proxy.
    c.header("Cache-Control", "no-store");
    return c.json(prequalify(c.req.valid("json"), panel), 200);
  });
}
