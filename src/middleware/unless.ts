import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";

/** Runs `middleware` except on the listed sub-paths (compared after the mount prefix). */
export const unless =
  (paths: string[], middleware: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> =>
  (c, next) =>
    paths.some((p) => c.req.path.endsWith(p)) ? next() : middleware(c, next);
