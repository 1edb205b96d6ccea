import { scopeOf } from "../../../domain/identity/caller";
import { lenderCommissions } from "../../../services/commission/reads";
import { reportRepaymentOutcome } from "../../../services/commission/ledger";
import { loadDealView } from "../../../services/deals/reads";
import { viewContext } from "../../../services/views/view-context";
import type { Router } from "../../router";
import { announceDeprecatedFields } from "../deals/handlers";
import { listLenderCommissionsRoute, reportRepaymentOutcomeRoute } from "./routes";

export function registerLenderCommissionRoutes(router: Router) {
  router.openapi(listLenderCommissionsRoute, async (c) => {
    const { state, month, cursor, limit } = c.req.valid("query");
    return c.json(await lenderCommissions(c.get("deps"), scopeOf(c.get("caller")), { kind: state, month }, cursor, limit), 200);
  });

  router.openapi(reportRepaymentOutcomeRoute, async (c) => {
    const ctx = viewContext(c.env, { deps: c.get("deps") });
    const scope = scopeOf(c.get("caller"));
    const ref = await reportRepaymentOutcome(ctx, scope, c.req.valid("param").ref, c.req.valid("json").outcome);
    announceDeprecatedFields(c);
    return c.json((await loadDealView(ctx, scope, ref))!, 200);
  });
}
