import { registerCommissionPage } from "./commission";
import type { Hono } from "hono";
import type { PortalContext, PortalEnv } from "../context";
import { requireKind } from "../require-role";
import { registerEventsPage } from "./events";
import { registerApplicationLinkPages } from "./application-link";
import { registerLeadDetailPages } from "./lead-detail";
import { registerLeadFormPages } from "./lead-form";
import { registerLeadsListPage } from "./leads-list";
import { partnerOverviewPage } from "./overview";
import { registerPrequalificationPage } from "./prequalification";
import { registerWebsiteFormPage } from "./website-form";

/**
 * The partner portal's pages, every one behind requireKind("partner") (a
 * lender's member gets the same 404 as an unknown page), and the event log,
 * which partners and lenders share (each sees their own API's events).
 */
export function registerPartnerPages(portal: Hono<PortalEnv>) {
  for (const path of ["/leads", "/leads/*", "/prequalification", "/website-form"]) portal.use(path, requireKind("partner"));
  // "/leads/new" is registered before "/leads/:id" so "new" is never read as an id.
  registerLeadFormPages(portal);
  registerLeadsListPage(portal);
  registerApplicationLinkPages(portal);
  registerLeadDetailPages(portal);
  registerPrequalificationPage(portal);
  registerWebsiteFormPage(portal);
  registerEventsPage(portal);
  registerCommissionPage(portal);
}

/** The home page of a partner's member. */
export function partnerOverview(c: PortalContext) {
  return partnerOverviewPage(c);
}
