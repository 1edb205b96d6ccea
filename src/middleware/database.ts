import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { database } from "../db/client";

/**
 * Puts the request's database client on the context (`c.get("db")`), as unkey puts its
 * services there: handlers and later middleware take it from the request instead of building
 * their own, and no route folder imports `src/db`.
 */
export const provideDatabase = createMiddleware<AppEnv>(async (c, next) => {
  c.set("db", database(c.env.DB));
  await next();
});
