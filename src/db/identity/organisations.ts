import { desc, eq } from "drizzle-orm";
import type { Database } from "../client";
import { organisations } from "../schema/identity";
import { writeOrder } from "../write-order";

export type Organisation = typeof organisations.$inferSelect;

/** A batch of one, so a keyed request (the operator API's Idempotency-Key) spends its key with it. */
export async function insertOrganisation(db: Database, row: Organisation) {
  await db.batch([db.insert(organisations).values(row)]);
  return row;
}

export async function findOrganisation(db: Database, id: string) {
  return (await db.select().from(organisations).where(eq(organisations.id, id)).get()) ?? null;
}

export async function listOrganisations(db: Database) {
  return db.select().from(organisations).orderBy(desc(organisations.createdAt), desc(writeOrder(organisations))).all();
}
