import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";

/**
 * Runs `middleware` except on the listed full paths (mount prefix included).
 * The comparison is exact: a suffix test let `/v1/deals/openapi.json` skip
 * authentication because a path id can be spelled like a public path
 * (docs/operations.md "Security").
 */
export const unless = (paths: readonly string[], middleware: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> => {
  const skipped = new Set(paths);
  return (c, next) => (skipped.has(c.req.path) ? next() : middleware(c, next));
};
