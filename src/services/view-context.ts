/**
 * What building a resource view needs beyond the row: the database for the
 * parts held elsewhere (offers, documents) and the link signer for download
 * and hub links. API handlers and the webhook dispatcher build views the same
 * way, so a `full` payload equals the GET.
 */
import { database, type Database } from "../db/client";
import type { Bindings } from "../lib/env";
import { linksFor, type LinkEnv, type Links } from "./links";

export interface ViewContext {
  db: Database;
  links: Links;
}

export type ViewEnv = Pick<Bindings, "DB"> & LinkEnv;

export const viewContext = (env: ViewEnv, links: Links = linksFor(env)): ViewContext => ({ db: database(env.DB), links });
