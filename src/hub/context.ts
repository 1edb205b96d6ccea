import type { Context } from "hono";
import type { AppEnv, Variables } from "../app-env";
import type { Lead } from "../domain/leads/types";
import { notFoundPage } from "./layout";

/** The hub's context: the app's, plus the lead the link opened and the link's base path. */
export type HubEnv = { Bindings: AppEnv["Bindings"]; Variables: Variables & { lead: Lead; hubBase: string } };
export type HubContext = Context<HubEnv>;

/** A wrong token and an unknown lead get the same plain page. */
export const notFound = (c: Context) => c.html(notFoundPage(), 404);
