import type { Hono } from "hono";
import type { PortalContext, PortalEnv } from "../context";
import { PortalPage } from "../layout";

/** The partner portal's pages; every one is mounted behind requireKind("partner"). */
export function registerPartnerPages(portal: Hono<PortalEnv>) {
  void portal;
}

/** The home page of a partner's member. */
export function partnerOverview(c: PortalContext) {
  const viewer = c.get("viewer");
  return c.html(
    <PortalPage title="Overview" viewer={viewer} formToken={c.get("formToken")}>
      <p>
        Signed in to {viewer.organisationName} as {viewer.role}, looking at the {viewer.environment} environment.
      </p>
    </PortalPage>,
  );
}
