import type { Context } from "hono";
import type { AppEnv, Variables } from "../../app-env";
import type { Lead } from "../../domain/leads/types";
import { notFoundPage, type HubView } from "./layout";

/** The hub's context: the app's, plus the lead the link opened, the link's base path and how pages show it to the business. */
export type HubEnv = { Bindings: AppEnv["Bindings"]; Variables: Variables & { lead: Lead; hubBase: string; hubView: HubView } };
export type HubContext = Context<HubEnv>;

/** A wrong token and an unknown lead get the same plain page. */
export const notFound = (c: Context) => c.html(notFoundPage(), 404);
