/**
 * What building a resource view needs beyond the row: the database for the
 * parts held elsewhere (offers, documents) and the link signer for download
 * and hub links. API handlers and the webhook dispatcher build views the same
 * way, so a `full` payload equals the GET.
 */
import { database, type Database } from "../../db/client";
import type { Bindings } from "../../lib/env";
import { linksFor, type LinkEnv, type Links } from "./links";

export interface ViewContext {
  db: Database;
  links: Links;
}

export type ViewEnv = Pick<Bindings, "DB"> & LinkEnv;

/** Handlers pass the request's client (`c.get("db")`); the dispatcher, outside any request, lets it be built here. */
export const viewContext = (env: ViewEnv, options: { db?: Database; links?: Links } = {}): ViewContext => ({
  db: options.db ?? database(env.DB),
  links: options.links ?? linksFor(env),
});
