/**
 * What building a resource view needs beyond the row: the database for the
 * parts held elsewhere (offers, documents) and the link signer for download
 * and hub links. API handlers and the webhook dispatcher build views the same
 * way, so a `full` payload equals the GET. It is the services' `Deps` with the
 * links beside it, so a view can call any service with it.
 */
import type { Bindings } from "../../lib/env";
import { depsOf, type Deps } from "../deps";
import { linksFor, type LinkEnv, type Links } from "./links";

export interface ViewContext extends Deps {
  links: Links;
}

type ViewEnv = Bindings & LinkEnv;

/** Doors pass the request's `deps` (`c.get("deps")`, built once per request); the dispatcher passes its run's. Without one, one is built here. */
export const viewContext = (env: ViewEnv, options: { deps?: Deps; links?: Links } = {}): ViewContext => ({
  ...(options.deps ?? depsOf(env)),
  links: options.links ?? linksFor(env),
});
