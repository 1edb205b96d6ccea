/**
 * The lender portal: the overview, the deals list and one page per deal with
 * every action a lender takes on it. Each page and action calls the lender
 * API's own service functions with the member's scope (scopeOfViewer), so the
 * same rules, events and webhooks apply; each action is audited.
 */
import { DeclineReasonFilter } from "../../../api/shared/schemas/deal";
import type { Hono, MiddlewareHandler } from "hono";
import { dealSummary } from "../../../domain/deals/view";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { LENDER_STATUSES, type LenderStatus } from "../../../domain/reference/values";
import { isRefusal } from "../../../lib/refusal";
import { ListLimit } from "../../../api/shared/schemas/common";
import { dealsByLenderStatus } from "../../../services/deals/overview";
import { pageOfDeals } from "../../../services/deals/reads";
import type { PortalContext, PortalEnv } from "../context";
import { requireKind } from "../require-role";
import { registerDealActions } from "./deal-actions";
import { dealsPage } from "./deals-page";
import { lenderOverviewPage } from "./overview-page";
import { registerSandboxPages } from "./sandbox";
import { workQueuePage } from "./work-queue-page";
import { workQueue, workQueueCount } from "../../../services/deals/work-queue";
import { DEAL_NOTICES, renderDeal } from "./render-deal";

/** The page size unless `?limit=` (1 to 100, as the API's) asks for another. */
const DEALS_PAGE_SIZE = 25;

const isLenderStatus = (value: string): value is LenderStatus => (LENDER_STATUSES as readonly string[]).includes(value);

/** The lender portal's pages; every one is mounted behind requireKind("lender"). */
export function registerLenderPages(portal: Hono<PortalEnv>) {
  portal.use("/deals", requireKind("lender"));
  portal.use("/deals/*", requireKind("lender"));
  portal.use("/queue", requireKind("lender"));

  portal.get("/deals", async (c) => {
    const viewer = c.get("viewer");
    const base = { viewer, formToken: c.get("formToken"), deals: [], nextCursor: null, paged: false, limit: null, reason: null };
    const asked = c.req.query("status") ?? "";
    if (asked !== "" && !isLenderStatus(asked)) {
      return c.html(dealsPage({ ...base, status: null, feedback: { error: { field: "status", message: "Choose the status from the list." } } }), 400);
    }
    const status = asked === "" ? null : (asked as LenderStatus);
    // The API's own filter schema: the same codes, the same refusal.
    const reasonsAsked = DeclineReasonFilter.safeParse(c.req.query("reasons") ?? "");
    if (!reasonsAsked.success) {
      return c.html(dealsPage({ ...base, status, feedback: { error: { field: "reasons", message: "Choose the reason from the list." } } }), 400);
    }
    const reasons = reasonsAsked.data;
    const reason = reasons.length > 0 ? reasons.join(",") : null;
    const askedLimit = c.req.query("limit");
    const limitAsked = askedLimit === undefined ? null : ListLimit.safeParse(askedLimit);
    if (limitAsked && !limitAsked.success) {
      return c.html(dealsPage({ ...base, status, reason, feedback: { error: { field: null, message: "The page size must be a whole number from 1 to 100." } } }), 400);
    }
    const limit = limitAsked ? limitAsked.data : null;
    const cursor = c.req.query("cursor") || undefined;
    try {
      const page = await pageOfDeals(c.get("deps"), scopeOfViewer(viewer), status ?? undefined, cursor, limit ?? DEALS_PAGE_SIZE, reasons);
      return c.html(dealsPage({ ...base, status, reason, limit, deals: page.deals.map(dealSummary), nextCursor: page.nextCursor, paged: cursor !== undefined }));
    } catch (error) {
      // A cursor this list did not issue for this filter (edited, another organisation's or environment's) is refused, never read.
      if (isRefusal(error, "invalid_request")) {
        return c.html(dealsPage({ ...base, status, reason, feedback: { error: { field: null, message: "That page of deals does not exist: open the deals list again from the menu." } } }), 400);
      }
      throw error;
    }
  });

  portal.get("/queue", async (c) => {
    const viewer = c.get("viewer");
    const mine = c.req.query("mine") === "1";
    const queue = await workQueue(c.get("deps"), scopeOfViewer(viewer), mine ? viewer.memberId : undefined);
    return c.html(workQueuePage({ viewer, formToken: c.get("formToken"), mine, ...queue }));
  });

  portal.get("/deals/:ref", (c) => renderDeal(c, c.req.param("ref"), 200, { notice: DEAL_NOTICES[c.req.query("notice") ?? ""] ?? null }));

  registerDealActions(portal);
  registerSandboxPages(portal);
}

/**
 * For a lender's member, the number of deals waiting on the lender, on the
 * viewer so every page's navigation shows it beside "Work queue" (one count query).
 */
export const withWorkQueueCount: MiddlewareHandler<PortalEnv> = async (c, next) => {
  const viewer = c.get("viewer");
  if (viewer?.organisationKind === "lender") {
    c.set("viewer", { ...viewer, awaiting: await workQueueCount(c.get("deps"), scopeOfViewer(viewer)) });
  }
  await next();
};

/** The home page of a lender's member: deals by lender_status. */
export async function lenderOverview(c: PortalContext) {
  const viewer = c.get("viewer");
  const counts = await dealsByLenderStatus(c.get("deps"), scopeOfViewer(viewer));
  return c.html(lenderOverviewPage({ viewer, formToken: c.get("formToken"), counts }));
}
