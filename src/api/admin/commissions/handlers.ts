import type { Router } from "../../router";
import { commissionTermsOf, putCommissionTerms } from "../../../services/commission/terms";
import { operatorCommissions, operatorTotals } from "../../../services/commission/reads";
import { markCommissionPaid } from "../../../services/commission/ledger";
import type { CurrencyCode } from "../../../domain/commission/money";
import { getTermsRoute, listEntriesRoute, payEntryRoute, putTermsRoute, totalsRoute } from "./routes";

export function registerCommissionRoutes(router: Router) {
  router.openapi(putTermsRoute, async (c) => {
    const { lender_id, product_id } = c.req.valid("param");
    const body = c.req.valid("json");
    const terms = await putCommissionTerms(c.get("deps"), lender_id, product_id, {
      partnerOrganisationId: body.partner_organisation_id,
      currency: body.currency as CurrencyCode,
      basis: body.basis,
      rateBps: body.rate_bps,
      flatAmount: body.flat_amount,
      minAmount: body.min_amount,
      maxAmount: body.max_amount,
      clawbackDays: body.clawback_days,
    });
    return c.json(terms, 201);
  });

  router.openapi(getTermsRoute, async (c) => {
    const { lender_id, product_id } = c.req.valid("param");
    return c.json({ terms: await commissionTermsOf(c.get("deps"), lender_id, product_id) }, 200);
  });

  router.openapi(listEntriesRoute, async (c) => {
    const { environment, partner_organisation_id, state, month, cursor, limit } = c.req.valid("query");
    return c.json(await operatorCommissions(c.get("deps"), environment, partner_organisation_id, { kind: state, month }, cursor, limit), 200);
  });

  router.openapi(totalsRoute, async (c) => {
    const { environment, month } = c.req.valid("query");
    return c.json(await operatorTotals(c.get("deps"), environment, month), 200);
  });

  router.openapi(payEntryRoute, async (c) => {
    const entry = await markCommissionPaid(c.get("deps"), c.req.valid("query").environment, c.req.valid("param").id, c.req.valid("json").payment_reference);
    return c.json(entry, 201);
  });
}
