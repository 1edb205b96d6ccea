/**
 * The lender's sandbox in the portal: list, create and delete test deals. Each
 * action calls the service behind the lender API's test-deal endpoints
 * (services/deals/test-deals.ts) with the member's scope, so the cap of 10, the
 * deal.created event and its webhooks are the API's own; each is audited. The
 * simulate buttons on a test deal's page are in deal-actions.ts. Deleting asks first (the kit's confirm page, web/kit/confirm.tsx).
 */
import type { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { normaliseDealReference } from "../../../domain/deals/reference";
import { MARKET_COUNTRIES } from "../../../domain/reference/markets";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { isRefusal } from "../../../lib/refusal";
import { recordPortalAction } from "../../../services/portal/audit";
import { createTestDeal, removeTestDeal, testDealsOf } from "../../../services/deals/test-deals";
import { viewContext } from "../../../services/views/view-context";
import { CONFIRMED, Confirm, isConfirmed } from "../../kit/confirm";
import { readForm, textFields } from "../../kit/form";
import { EXAMPLE_OF, readMoney } from "../../kit/number-input";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { PortalPage, type PageFeedback } from "../layout";
import { notFoundPage } from "../refused-page";
import { requireKind } from "../require-role";
import { sandboxPage } from "./sandbox-page";

/** What the sandbox page says after a redirect (`?notice=`): fixed sentences, nothing from the request. */
const SANDBOX_NOTICES: Record<string, string> = {
  deleted: "The test deal was deleted.",
};

async function showSandbox(c: PortalContext, status: ContentfulStatusCode, feedback?: PageFeedback, draft?: Record<string, string>) {
  const viewer = c.get("viewer");
  const { deals, cap } = await testDealsOf(c.get("deps"), scopeOfViewer(viewer));
  return c.html(sandboxPage({ viewer, formToken: c.get("formToken"), deals, cap, feedback, draft }), status);
}

const refused = (field: string | null, message: string): PageFeedback => ({ error: { field, message } });

export function registerSandboxPages(portal: Hono<PortalEnv>) {
  portal.use("/sandbox", requireKind("lender"));
  portal.use("/sandbox/*", requireKind("lender"));

  portal.get("/sandbox", (c) => showSandbox(c, 200, { notice: SANDBOX_NOTICES[c.req.query("notice") ?? ""] ?? null }));

  portal.post("/sandbox/deals", async (c) => {
    const viewer = c.get("viewer");
    const fields = textFields(await readForm(c), { trim: true });
    const country = fields.country || "GB";
    if (!MARKET_COUNTRIES.includes(country)) return showSandbox(c, 400, refused("country", "Choose the market from the list."), fields);
    let amount: number | undefined;
    if (fields.amount) {
      const read = readMoney(fields.amount);
      if (read === null || !(read > 0)) return showSandbox(c, 400, refused("amount", `Enter the amount as a number above zero, ${EXAMPLE_OF.money}.`), fields);
      amount = read;
    }
    try {
      const deal = await createTestDeal(viewContext(c.env, { deps: c.get("deps") }), scopeOfViewer(viewer), {
        country,
        ...(amount !== undefined ? { funding: { amount, purpose: "working_capital", product_family: "business_loan" } } : {}),
      });
      await recordPortalAction(c.get("deps"), viewer, "test_deal.created", deal.ref);
      return c.redirect(`${PORTAL_ROUTE}/deals/${deal.ref}?notice=test_deal_created#simulate`, 303);
    } catch (error) {
      if (isRefusal(error, "cap_exceeded")) return showSandbox(c, 422, refused(null, "You already have 10 test deals, the most there can be: delete one to make another."), fields);
      throw error;
    }
  });

  // Deleting cannot be undone: the Delete button opens this question first (no JavaScript needed).
  portal.get("/sandbox/deals/:ref/delete", async (c) => {
    const viewer = c.get("viewer");
    const ref = normaliseDealReference(c.req.param("ref"));
    const { deals } = await testDealsOf(c.get("deps"), scopeOfViewer(viewer));
    const deal = deals.find((d) => d.ref === ref);
    if (!deal) return c.html(notFoundPage(), 404);
    return c.html(
      <PortalPage title="Delete this test deal?" viewer={viewer} formToken={c.get("formToken")}>
        <Confirm
          question={`Delete test deal ${ref}?`}
          facts={[
            ["Test deal", ref],
            ["Business", deal.business.name ?? "no business name"],
          ]}
          consequence="The test deal and everything on it (offers, messages, requests) leave your lists and the API for good. Your webhooks already received its events."
          irreversible
          next="you are back on your test deals; you can make another (up to 10)."
          action={`${PORTAL_ROUTE}/sandbox/deals/${ref}/delete`}
          hidden={{ _form_token: c.get("formToken"), ...CONFIRMED }}
          confirmLabel="Delete the test deal"
          cancelHref={`${PORTAL_ROUTE}/sandbox`}
          cancelLabel="Cancel, keep it"
        />
      </PortalPage>,
    );
  });

  portal.post("/sandbox/deals/:ref/delete", async (c) => {
    const viewer = c.get("viewer");
    const ref = normaliseDealReference(c.req.param("ref"));
    // Without the question's field nothing is deleted: the person is shown the question first.
    if (!isConfirmed(textFields(await readForm(c)))) return c.redirect(`${PORTAL_ROUTE}/sandbox/deals/${ref}/delete`, 303);
    try {
      await removeTestDeal(c.get("deps"), scopeOfViewer(viewer), ref);
    } catch (error) {
      // Another lender's deal, one of the other environment, a real deal or one already deleted: the same 404.
      if (isRefusal(error, "not_found")) return c.html(notFoundPage(), 404);
      throw error;
    }
    await recordPortalAction(c.get("deps"), viewer, "test_deal.deleted", ref);
    return c.redirect(`${PORTAL_ROUTE}/sandbox?notice=deleted`, 303);
  });
}
