/**
 * What building a resource view needs beyond the row: the database for the
 * parts held elsewhere (offers, documents) and the link signer for download
 * and hub links. API handlers and the webhook dispatcher build views the same
 * way, so a `full` payload equals the GET. It is the services' `Deps` with the
 * links beside it, so a view can call any service with it.
 */
import type { Database } from "../../db/client";
import type { Bindings } from "../../lib/env";
import { depsOf, type Deps } from "../deps";
import { linksFor, type LinkEnv, type Links } from "./links";

export interface ViewContext extends Deps {
  links: Links;
}

type ViewEnv = Bindings & LinkEnv;

/** Handlers pass the request's client (`c.get("db")`) or its whole `deps`; the dispatcher, outside any request, lets them be built here. */
export const viewContext = (env: ViewEnv, options: { db?: Database; deps?: Deps; links?: Links } = {}): ViewContext => ({
  ...(options.deps ?? depsOf(env, { db: options.db })),
  links: options.links ?? linksFor(env),
});
