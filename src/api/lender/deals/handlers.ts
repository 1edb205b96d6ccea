import type { Context } from "hono";
import type { AppEnv } from "../../../app-env";
import { scopeOf } from "../../../domain/identity/caller";
import { dealSummary, messageView } from "../../../domain/deals/view";
import { Refusal } from "../../../lib/refusal";
import type { Router } from "../../router";
import { viewContext } from "../../../services/views/view-context";
import { uploadAgreement } from "../../../services/deals/agreements";
import { dealMessages, sendMessage } from "../../../services/deals/messages";
import { dealOffers, makeOffer } from "../../../services/deals/offers";
import { dealCompletion, loadDealView, pageOfDeals } from "../../../services/deals/reads";
import { reportStatus } from "../../../services/deals/status";
import { checkAgreementPdf } from "../../shared/schemas/deal-actions";
import {
  completionRoute,
  getDealRoute,
  listDealsRoute,
  listMessagesRoute,
  listOffersRoute,
  makeOfferRoute,
  putAgreementRoute,
  reportStatusRoute,
  sendMessageRoute,
} from "./routes";

/** RFC 9745: the top-level duplicates were deprecated with the 2026-09 release (2026-09-01). */
const DEPRECATION = "@1788220800";

/** Every response that carries a full deal also carries the deprecation notice of its duplicates. */
export function announceDeprecatedFields(c: Context<AppEnv>) {
  c.header("Deprecation", DEPRECATION);
  c.header("Link", `<${new URL("/docs#deal-deprecated-fields", c.req.url)}>; rel="deprecation"`);
}

const notFound = () => new Refusal("not_found", "No deal with that reference is routed to this account in this environment.");

export function registerDealRoutes(router: Router) {
  router.openapi(listDealsRoute, async (c) => {
    const { status, cursor, limit, reasons } = c.req.valid("query");
    const page = await pageOfDeals(c.get("deps"), scopeOf(c.get("caller")), status, cursor, limit, reasons);
    return c.json({ deals: page.deals.map(dealSummary), next_cursor: page.nextCursor }, 200);
  });

  router.openapi(getDealRoute, async (c) => {
    const deal = await loadDealView(viewContext(c.env, { deps: c.get("deps") }), scopeOf(c.get("caller")), c.req.valid("param").ref);
    if (!deal) throw notFound();
    announceDeprecatedFields(c);
    return c.json(deal, 200);
  });

  router.openapi(reportStatusRoute, async (c) => {
    const ctx = viewContext(c.env, { deps: c.get("deps") });
    const scope = scopeOf(c.get("caller"));
    const deal = await reportStatus(ctx, scope, c.req.valid("param").ref, c.req.valid("json"));
    announceDeprecatedFields(c);
    return c.json((await loadDealView(ctx, scope, deal.ref))!, 200);
  });

  router.openapi(listOffersRoute, async (c) => c.json({ offers: await dealOffers(c.get("deps"), scopeOf(c.get("caller")), c.req.valid("param").ref) }, 200));

  router.openapi(makeOfferRoute, async (c) => c.json(await makeOffer(c.get("deps"), scopeOf(c.get("caller")), c.req.valid("param").ref, c.req.valid("json")), 201));

  router.openapi(listMessagesRoute, async (c) => {
    const messages = await dealMessages(c.get("deps"), scopeOf(c.get("caller")), c.req.valid("param").ref);
    return c.json({ messages: messages.map(messageView) }, 200);
  });

  router.openapi(sendMessageRoute, async (c) => {
    const message = await sendMessage(c.get("deps"), scopeOf(c.get("caller")), c.req.valid("param").ref, c.req.valid("json").body);
    return c.json({ message: messageView(message) }, 201);
  });

  router.openapi(completionRoute, async (c) => c.json({ completion: await dealCompletion(c.get("deps"), scopeOf(c.get("caller")), c.req.valid("param").ref) }, 200));

  router.openapi(putAgreementRoute, async (c) => {
    const pdf = await c.req.arrayBuffer();
    checkAgreementPdf(c.req.header("Content-Type") ?? "", pdf, "body");
    const completion = await uploadAgreement(c.get("deps"), scopeOf(c.get("caller")), c.req.valid("param").ref, pdf);
    return c.json({ completion }, 200);
  });
}
