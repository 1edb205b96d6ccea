import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { database } from "../db/client";
import { isBookmark } from "../lib/bookmarks";
import { pageDoorAt } from "../lib/doors";
import { depsOf } from "../services/deps";
import { rememberKeyBookmark } from "../services/identity/key-authority";

/** The web doors keep their reader's bookmark in this cookie, one per door path (docs/capacity.md "Read replicas"). */
const BOOKMARK_COOKIE = "rfs_bookmark";
const OPERATOR_PATH = "/admin/v1";

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
const webDoorOf = pageDoorAt;

/**
 * Where the request's D1 session starts: the operator API always at the primary (few calls, and an
 * operator acting on what a partner just did must see it); a portal or hub page at its cookie's bookmark;
 * anything else anywhere (`first-unconstrained`), until authentication hands over the key's bookmark.
 */
function startOf(c: Context<AppEnv>): string {
  if (under(c.req.path, OPERATOR_PATH)) return "first-primary";
  const cookie = webDoorOf(c.req.path) ? getCookie(c, BOOKMARK_COOKIE) : undefined;
  return isBookmark(cookie) ? cookie : "first-unconstrained";
}

/**
 * Puts a client over the request's D1 session starting at `start`, and the services' Deps, on the context.
 * The session opens at the first statement, so a request that asks nothing of D1 (`/health`) never touches it.
 */
function provideSession(c: Context<AppEnv>, start: string) {
  let session: D1DatabaseSession | undefined;
  const opened = () => (session ??= c.env.DB.withSession(start));
  // The drizzle D1 driver uses only prepare and batch, which a session has as the binding does.
  const lazy = { prepare: (query: string) => opened().prepare(query), batch: (statements: D1PreparedStatement[]) => opened().batch(statements) };
  const db = database(lazy as unknown as D1Database);
  c.set("dbSession", { getBookmark: () => session?.getBookmark() ?? null } as D1DatabaseSession);
  c.set("db", db);
  c.set("deps", depsOf(c.env, { db }));
}

/**
 * Authentication found the key's latest bookmark (the key's Durable Object keeps it): the request reads
 * from a session opened there, so it sees at least what the key last wrote. Nothing has queried the
 * first session yet (authentication is one Durable Object call and no D1 query), so nothing is lost.
 */
export function startSessionAt(c: Context<AppEnv>, bookmark: string | undefined) {
  if (isBookmark(bookmark)) provideSession(c, bookmark);
}

/**
 * Puts the request's database client on the context (`c.get("db")`), as unkey puts its
 * services there: handlers and later middleware take it from the request instead of building
 * their own, and no route folder imports `src/db`. The services' `Deps` (`c.get("deps")`,
 * src/services/deps.ts) is built here too, once per request, over that same client.
 *
 * The client is a D1 session (read replication): reads may be served by a replica no older than the
 * session's start, writes go to the primary. A request that wrote hands the session's bookmark on,
 * before its answer leaves, so the same caller's next request starts at least there: to the key's
 * Durable Object for a keyed request, in a cookie for a portal or hub page. Counting still works:
 * `env.DB` here is the counted binding (middleware/server-timing.ts), and its sessions count too.
 */
export const provideDatabase = createMiddleware<AppEnv>(async (c, next) => {
  provideSession(c, startOf(c));
  await next();
  if (!c.get("roundTrips")?.wrote) return;
  const bookmark = c.get("dbSession").getBookmark();
  if (!isBookmark(bookmark)) return;
  const caller = c.get("caller");
  if (caller) {
    // Awaited, not left to waitUntil: the key's next request could otherwise reach its object first.
    // A failure costs only that guarantee for the next read (it may come from an older replica), never the write.
    await rememberKeyBookmark(c.get("deps"), caller.clientId, bookmark).catch((error) => c.get("deps").log.logError("bookmark.not_kept", error));
    return;
  }
  const door = webDoorOf(c.req.path);
  if (door) setCookie(c, BOOKMARK_COOKIE, bookmark, { httpOnly: true, secure: true, sameSite: "Lax", path: door });
});
