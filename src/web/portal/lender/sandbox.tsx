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
import { Refusal } from "../../../lib/refusal";
import { createTestDeal, removeTestDeal, testDealsOf } from "../../../services/deals/test-deals";
import { viewContext } from "../../../services/views/view-context";
import { CONFIRMED, Confirm } from "../../kit/confirm";
import { textFields } from "../../kit/form";
import { EXAMPLE_OF, readMoney } from "../../kit/number-input";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { PortalPage, type PageFeedback } from "../layout";
import { portalForm } from "../form-action";
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

  portal.post(
    "/sandbox/deals",
    portalForm<Record<string, string>>({
      audit: () => ({ action: "test_deal.created" }),
      draftOf: (form) => textFields(form, { trim: true }),
      showAgain: (c, refusal, draft) =>
        showSandbox(c, refusal.status, refused(refusal.field, refusal.code === "cap_exceeded" ? "You already have 10 test deals, the most there can be: delete one to make another." : refusal.message), draft),
      page: () => `${PORTAL_ROUTE}/sandbox`,
      act: async (c, form, entry) => {
        const fields = textFields(form, { trim: true });
        const country = fields.country || "GB";
        if (!MARKET_COUNTRIES.includes(country)) throw new Refusal("invalid_request", "Choose the market from the list.", { field: "country" });
        let amount: number | undefined;
        if (fields.amount) {
          const read = readMoney(fields.amount);
          if (read === null || !(read > 0)) throw new Refusal("invalid_request", `Enter the amount as a number above zero, ${EXAMPLE_OF.money}.`, { field: "amount" });
          amount = read;
        }
        const deal = await createTestDeal(viewContext(c.env, { deps: c.get("deps") }), scopeOfViewer(c.get("viewer")), {
          country,
          ...(amount !== undefined ? { funding: { amount, purpose: "working_capital", product_family: "business_loan" } } : {}),
        });
        entry.about(deal.ref);
        return `${PORTAL_ROUTE}/deals/${deal.ref}?notice=test_deal_created#simulate`;
      },
    }),
  );

  // Deleting cannot be undone: the Delete button opens this question first (no JavaScript needed).
  portal.get("/sandbox/deals/:ref/delete", async (c) => {
    const viewer = c.get("viewer");
    const ref = normaliseDealReference(c.req.param("ref") ?? "");
    const { deals } = await testDealsOf(c.get("deps"), scopeOfViewer(viewer));
    const deal = deals.find((d) => d.ref === ref);
    if (!deal) throw new Refusal("not_found", "No such test deal.");
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

  portal.post(
    "/sandbox/deals/:ref/delete",
    portalForm({
      audit: (c) => ({ action: "test_deal.deleted", target: normaliseDealReference(c.req.param("ref") ?? "") }),
      // Without the question's field nothing is deleted: the person is shown the question first.
      confirm: (c) => `${PORTAL_ROUTE}/sandbox/deals/${normaliseDealReference(c.req.param("ref") ?? "")}/delete`,
      showAgain: (c, refusal) => showSandbox(c, refusal.status, refused(refusal.field, refusal.message)),
      page: () => `${PORTAL_ROUTE}/sandbox`,
      act: async (c) => {
        // Another lender's deal, one of the other environment, a real deal or one already deleted: not_found, the same 404 page.
        await removeTestDeal(c.get("deps"), scopeOfViewer(c.get("viewer")), normaliseDealReference(c.req.param("ref") ?? ""));
        return `${PORTAL_ROUTE}/sandbox?notice=deleted`;
      },
    }),
  );
}
