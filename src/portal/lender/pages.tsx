import type { Hono } from "hono";
import type { PortalContext, PortalEnv } from "../context";
import { PortalPage } from "../layout";

/** The lender portal's pages; every one is mounted behind requireKind("lender"). */
export function registerLenderPages(portal: Hono<PortalEnv>) {
  void portal;
}

/** The home page of a lender's member. */
export function lenderOverview(c: PortalContext) {
  const viewer = c.get("viewer");
  return c.html(
    <PortalPage title="Overview" viewer={viewer} formToken={c.get("formToken")}>
      <p>
        Signed in to {viewer.organisationName} as {viewer.role}, looking at the {viewer.environment} environment.
      </p>
    </PortalPage>,
  );
}
