import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import type { AppEnv, RequestSession, RequestSessions } from "../app-env";
import { databaseFor, routedDatabase, type D1Client, type DataEnvironment } from "../db/client";
import { isBookmark } from "../lib/bookmarks";
import { pageDoorAt } from "../lib/doors";
import { depsOf } from "../services/deps";
import { rememberKeyBookmark } from "../services/identity/key-authority";

/**
 * The web doors keep their reader's bookmarks in cookies, one per door path and one per database
 * (a bookmark is a position in one database's log): `rfs_bookmark` for `DB` (the control database, and
 * live's data), `rfs_bookmark_sandbox` for `DB_SANDBOX` (docs/capacity.md "Read replicas").
 */
const BOOKMARK_COOKIES: Record<DataEnvironment, string> = { live: "rfs_bookmark", sandbox: "rfs_bookmark_sandbox" };
const OPERATOR_PATH = "/admin/v1";

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
const webDoorOf = pageDoorAt;

/**
 * Where a D1 session of the request starts: the operator API always at the primary (few calls, and an
 * operator acting on what a partner just did must see it); a portal or hub page at its cookie's bookmark
 * for that database; anything else anywhere (`first-unconstrained`), until authentication hands over the key's bookmark.
 */
function startOf(c: Context<AppEnv>, environment: DataEnvironment): string {
  if (under(c.req.path, OPERATOR_PATH)) return "first-primary";
  const cookie = webDoorOf(c.req.path) ? getCookie(c, BOOKMARK_COOKIES[environment]) : undefined;
  return isBookmark(cookie) ? cookie : "first-unconstrained";
}

/** One database's D1 session, opened at its first statement, so a request that asks nothing of D1 (`/health`) never touches it. */
function lazySession(binding: D1Database, start: string): RequestSession {
  let session: D1DatabaseSession | undefined;
  const opened = () => (session ??= binding.withSession(start));
  // The drizzle D1 driver uses only prepare and batch, which a session has as the binding does.
  const client: D1Client = { prepare: (query) => opened().prepare(query), batch: (statements) => opened().batch(statements) };
  return { client, opened: () => session !== undefined, bookmark: () => session?.getBookmark() ?? null };
}


/**
 * Puts a client over the request's D1 sessions, and the services' Deps, on the context: control tables
 * through `control`'s session, the environment's data through `data`'s (the same session when the
 * environment is live: one database, one session, as before the sandbox had its own).
 */
function provideSessions(c: Context<AppEnv>, sessions: RequestSessions) {
  const db = routedDatabase(sessions.control.client, sessions.data.client);
  c.set("dbSessions", sessions);
  c.set("db", db);
  c.set("deps", depsOf(c.env, { db, environment: sessions.environment }));
}

/**
 * The request's caller is known (authentication, a portal session, a hub link): from here on the request
 * reads its environment's data database (`databaseFor`, src/db/client.ts), from a session opened at
 * `bookmark` when one is given (the key's latest, which the key's Durable Object keeps), so it sees at
 * least what the caller last wrote. Nothing has queried the data session yet (authentication is one
 * Durable Object call and no D1 query; the portal and hub read only control tables or the same database
 * before this), so nothing is lost by the swap.
 */
export function useEnvironment(c: Context<AppEnv>, environment: DataEnvironment, bookmark?: string) {
  const current = c.get("dbSessions");
  const start = isBookmark(bookmark) ? bookmark : undefined;
  if (environment === "live") {
    // Live data is in the control database: one session for both, reopened at the key's bookmark when there is one.
    if (current.environment === "live" && !start) return;
    const session = start ? lazySession(c.env.DB, start) : current.control;
    provideSessions(c, { environment, control: session, data: session });
    return;
  }
  if (current.environment === environment && !start) return;
  const data = lazySession(databaseFor(c.env, environment), start ?? startOf(c, environment));
  provideSessions(c, { environment, control: current.control, data });
}

/**
 * Puts the request's database client on the context (`c.get("db")`), as unkey puts its
 * services there: handlers and later middleware take it from the request instead of building
 * their own, and no route folder imports `src/db`. The services' `Deps` (`c.get("deps")`,
 * src/services/deps.ts) is built here too, once per request, over that same client.
 *
 * The client starts as the control client (with live's data, the same database); `useEnvironment`
 * points it at the caller's environment's data database once the caller is known.
 *
 * The client reads through D1 sessions (read replication): reads may be served by a replica no older than
 * the session's start, writes go to the primary. A request that wrote hands each session's bookmark on,
 * before its answer leaves, so the same caller's next request starts at least there: the data database's
 * to the key's Durable Object for a keyed request, in one cookie per database for a portal or hub page.
 * Counting still works: `env.DB` and `env.DB_SANDBOX` here are the counted bindings
 * (middleware/server-timing.ts), and their sessions count too.
 */
export const provideDatabase = createMiddleware<AppEnv>(async (c, next) => {
  const control = lazySession(c.env.DB, startOf(c, "live"));
  provideSessions(c, { environment: "live", control, data: control });
  await next();
  if (!c.get("roundTrips")?.wrote) return;
  const sessions = c.get("dbSessions");
  const caller = c.get("caller");
  if (caller) {
    const bookmark = sessions.data.bookmark();
    if (!isBookmark(bookmark)) return;
    // Awaited, not left to waitUntil: the key's next request could otherwise reach its object first.
    // A failure costs only that guarantee for the next read (it may come from an older replica), never the write.
    await rememberKeyBookmark(c.get("deps"), caller.clientId, bookmark).catch((error) => c.get("deps").log.logError("bookmark.not_kept", error));
    return;
  }
  const door = webDoorOf(c.req.path);
  if (!door) return;
  const opened: [DataEnvironment, RequestSession][] = sessions.data === sessions.control ? [["live", sessions.control]] : [["live", sessions.control], [sessions.environment, sessions.data]];
  for (const [environment, session] of opened) {
    const bookmark = session.bookmark();
    if (session.opened() && isBookmark(bookmark)) setCookie(c, BOOKMARK_COOKIES[environment], bookmark, { httpOnly: true, secure: true, sameSite: "Lax", path: door });
  }
});
