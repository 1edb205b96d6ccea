import { scopeOf } from "../../../domain/identity/caller";
import { partnerCommissions, partnerStatement } from "../../../services/commission/reads";
import type { Router } from "../../router";
import { listCommissionsRoute, statementRoute } from "./routes";

/** CSV when the caller asks for it before JSON (or only for it); JSON otherwise. */
const wantsCsv = (accept: string | undefined) => {
  const text = (accept ?? "").toLowerCase();
  const csv = text.indexOf("text/csv");
  const json = text.indexOf("application/json");
  return csv !== -1 && (json === -1 || csv < json);
};

export function registerCommissionRoutes(router: Router) {
  router.openapi(listCommissionsRoute, async (c) => {
    const { state, month, cursor, limit } = c.req.valid("query");
    return c.json(await partnerCommissions(c.get("deps"), scopeOf(c.get("caller")), { kind: state, month }, cursor, limit), 200);
  });

  router.openapi(statementRoute, async (c) => {
    const { month } = c.req.valid("param");
    const found = await partnerStatement(c.get("deps"), scopeOf(c.get("caller")), month);
    if (wantsCsv(c.req.header("Accept"))) {
      return c.body(found.csv(), 200, { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="commission-${month}.csv"` }) as never;
    }
    return c.json(found.statement, 200);
  });
}
