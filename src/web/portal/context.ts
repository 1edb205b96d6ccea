import type { Context } from "hono";
import type { AppEnv, Variables } from "../../app-env";
import type { PortalViewer } from "../../domain/portal/viewer";

/** The portal's context: the app's, plus the signed-in member (set by `requireViewer`) and their form token. */
export type PortalEnv = { Bindings: AppEnv["Bindings"]; Variables: Variables & { viewer: PortalViewer; formToken: string } };
export type PortalContext = Context<PortalEnv>;

export const PORTAL_ROUTE = "/portal";
