import { and, eq, gt, isNull } from "drizzle-orm";
import type { Database } from "./client";
import { accessTokens, apiKeys, organisations } from "./schema/identity";

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export async function insertApiKey(db: Database, row: ApiKeyRow) {
  await db.insert(apiKeys).values(row);
  return row;
}

export async function listKeysOf(db: Database, organisationId: string) {
  return db.select().from(apiKeys).where(eq(apiKeys.organisationId, organisationId)).all();
}

const keyWithOrganisation = {
  key: apiKeys,
  organisationKind: organisations.kind,
};

/** An unrevoked key by its key id, with its organisation's kind. */
export async function findActiveKey(db: Database, keyId: string) {
  return (
    (await db
      .select(keyWithOrganisation)
      .from(apiKeys)
      .innerJoin(organisations, eq(organisations.id, apiKeys.organisationId))
      .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
      .get()) ?? null
  );
}

/** Revokes a key; its bearer tokens die with it because token lookups join the key. */
export async function revokeKey(db: Database, clientId: string, at: string) {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(eq(apiKeys.clientId, clientId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}

export async function insertAccessToken(db: Database, row: typeof accessTokens.$inferInsert) {
  await db.insert(accessTokens).values(row);
}

/** A live token's unrevoked key; expired tokens and tokens of revoked keys find nothing. */
export async function findKeyByToken(db: Database, tokenHash: string, nowSeconds: number) {
  return (
    (await db
      .select(keyWithOrganisation)
      .from(accessTokens)
      .innerJoin(apiKeys, eq(apiKeys.id, accessTokens.keyId))
      .innerJoin(organisations, eq(organisations.id, apiKeys.organisationId))
      .where(and(eq(accessTokens.tokenHash, tokenHash), gt(accessTokens.expiresAt, nowSeconds), isNull(apiKeys.revokedAt)))
      .get()) ?? null
  );
}

export async function findKeyById(db: Database, keyId: string) {
  return (await db.select().from(apiKeys).where(eq(apiKeys.id, keyId)).get()) ?? null;
}
