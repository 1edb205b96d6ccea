/**
 * Post/redirect/get for refused form posts (the portal's, the hub's and the application link's): the
 * page drawn for a refusal is kept a few minutes under a random one-time id, bound to the browser
 * session that posted it, and shown once by the GET the post's 303 leads to. Only hashes of the id and
 * of the session are stored; a presented id is one-time whoever presents it, and the page is given only
 * to the same session (compared in constant time) at the same path, else the form is shown afresh.
 */
import { randomToken, sha256Hex, timingSafeEqual } from "../../lib/crypto";
import { deleteRefusedPostsBefore, insertRefusedPost, takeRefusedPostRow } from "../../db/portal/refused-posts";
import { isoNow, type Deps } from "../deps";

/** How long a refused page waits for its GET: the redirect is followed at once; a Back days later shows the form afresh. */
export const REFUSED_POST_TTL_MS = 10 * 60 * 1000;

/** A kept page: what the refusal drew and the status it was answered with. */
export interface RefusedPage {
  status: number;
  page: string;
}

/** Keeps the refused page for the session's next GET of `path`; answers the one-time id the redirect carries. */
export async function keepRefusedPost(deps: Deps, kept: RefusedPage & { session: string; path: string }): Promise<string> {
  const id = randomToken(32);
  await insertRefusedPost(deps.db, {
    idHash: await sha256Hex(id),
    sessionHash: await sha256Hex(kept.session),
    path: kept.path,
    status: kept.status,
    page: kept.page,
    createdAt: isoNow(deps),
  });
  return id;
}

/** The page kept under `id` for this session at this path, once; null when unknown, used, expired, or another session's or path's. */
export async function takeRefusedPost(deps: Deps, asked: { id: string; session: string; path: string }): Promise<RefusedPage | null> {
  const row = await takeRefusedPostRow(deps.db, await sha256Hex(asked.id));
  if (!row) return null;
  const fresh = Date.parse(row.createdAt) > deps.clock().getTime() - REFUSED_POST_TTL_MS;
  const same = timingSafeEqual(row.sessionHash, await sha256Hex(asked.session));
  return fresh && same && row.path === asked.path ? { status: row.status, page: row.page } : null;
}

/** What nobody came back for, dropped by the every-minute cron. */
export const sweepRefusedPosts = (deps: Deps) => deleteRefusedPostsBefore(deps.db, new Date(deps.clock().getTime() - REFUSED_POST_TTL_MS).toISOString());
