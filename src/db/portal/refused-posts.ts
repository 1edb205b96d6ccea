/** Refused form posts' pages, kept for the GET their redirect leads to (schema/portal.ts `refusedPosts`). */
import { eq, lt } from "drizzle-orm";
import type { Database } from "../client";
import { refusedPosts } from "../schema/portal";

export type RefusedPostRow = typeof refusedPosts.$inferSelect;

export async function insertRefusedPost(db: Database, row: RefusedPostRow) {
  await db.insert(refusedPosts).values(row);
}

/** The row of this id hash, deleted as it is read: the id is one-time, whoever presents it. */
export async function takeRefusedPostRow(db: Database, idHash: string): Promise<RefusedPostRow | null> {
  return (await db.delete(refusedPosts).where(eq(refusedPosts.idHash, idHash)).returning().get()) ?? null;
}

export async function deleteRefusedPostsBefore(db: Database, before: string) {
  return (await db.delete(refusedPosts).where(lt(refusedPosts.createdAt, before)).run()).meta.changes;
}
