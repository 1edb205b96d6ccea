import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { newRequestId } from "../lib/ids";

/** Every response, errors included, carries the id the logs are keyed by. */
export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const id = newRequestId();
  c.set("requestId", id);
  c.header("X-Request-Id", id);
  await next();
  c.res.headers.set("X-Request-Id", id);
});
