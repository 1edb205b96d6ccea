import type { Context } from "hono";
import type { AppEnv, Variables } from "../../app-env";
import type { PortalViewer } from "../../domain/portal/viewer";

/** The signed-in member as a page sees them: the viewer, and the path of the page asked for (the nav marks it `aria-current`). */
export type PageViewer = PortalViewer & { readonly path?: string };

/** The portal's context: the app's, plus the signed-in member (set by `requireViewer`) and their form token. */
export type PortalEnv = { Bindings: AppEnv["Bindings"]; Variables: Variables & { viewer: PageViewer; formToken: string; readerTimeZone: string } };
export type PortalContext = Context<PortalEnv>;

export const PORTAL_ROUTE = "/portal";

/** The product's name, in every page's <title> and the header, so a tab and a bookmark say whose page it is. */
export const PRODUCT_NAME = "Referral Funding Service";
