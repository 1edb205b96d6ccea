import type { Context } from "hono";
import type { AppEnv, Variables } from "../../app-env";
import type { Lead } from "../../domain/leads/types";
import type { HubView } from "./layout";

/** The hub's context: the app's, plus the lead the link opened, the link's base path and how pages show it to the business. */
export type HubEnv = { Bindings: AppEnv["Bindings"]; Variables: Variables & { lead: Lead; hubBase: string; hubView: HubView } };
export type HubContext = Context<HubEnv>;
