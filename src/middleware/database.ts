import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { database } from "../db/client";
import { depsOf } from "../services/deps";

/**
 * Puts the request's database client on the context (`c.get("db")`), as unkey puts its
 * services there: handlers and later middleware take it from the request instead of building
 * their own, and no route folder imports `src/db`. The services' `Deps` (`c.get("deps")`,
 * src/services/deps.ts) is built here too, once per request, over that same client.
 */
export const provideDatabase = createMiddleware<AppEnv>(async (c, next) => {
  const db = database(c.env.DB);
  c.set("db", db);
  c.set("deps", depsOf(c.env, { db }));
  await next();
});
