import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import type { Scope } from "../../domain/identity/caller";
import type { KeyState } from "../../domain/identity/key-state";
import type { Database } from "../client";
import { accessTokens, apiKeys, organisations } from "../schema/identity";
import { writeOrder } from "../write-order";

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** A batch of one, so a keyed request (the operator API's Idempotency-Key) spends its key with it. */
export async function insertApiKey(db: Database, row: ApiKeyRow) {
  await db.batch([db.insert(apiKeys).values(row)]);
  return row;
}

export async function listKeysOf(db: Database, organisationId: string) {
  return db.select().from(apiKeys).where(eq(apiKeys.organisationId, organisationId)).all();
}

/** Revokes a key in the record; the caller then tells the key's Durable Object, and its tokens die with it. */
export async function revokeKey(db: Database, clientId: string, at: string) {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(eq(apiKeys.clientId, clientId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}

/** The keys of one organisation in one environment, newest first: the portal's list, scoped in the query. */
export async function listKeysInScope(db: Database, scope: Scope) {
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.organisationId, scope.organisationId), eq(apiKeys.environment, scope.environment)))
    .orderBy(desc(apiKeys.createdAt), desc(writeOrder(apiKeys)))
    .all();
}

/**
 * Revokes a key only if it belongs to the scope, in one statement: `absent` when no key of the
 * scope has that client id (another organisation's key looks the same as none), otherwise whether
 * this call revoked it or it was revoked before (the row keeps its first revocation time).
 */
export async function revokeKeyInScope(db: Database, scope: Scope, clientId: string, at: string): Promise<"revoked" | "already_revoked" | "absent"> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, ${at})` })
    .where(and(eq(apiKeys.clientId, clientId), eq(apiKeys.organisationId, scope.organisationId), eq(apiKeys.environment, scope.environment)))
    .returning({ revokedAt: apiKeys.revokedAt });
  if (!row) return "absent";
  return row.revokedAt === at ? "revoked" : "already_revoked";
}

export async function insertAccessToken(db: Database, row: typeof accessTokens.$inferInsert) {
  await db.insert(accessTokens).values(row);
}

export async function findKeyById(db: Database, keyId: string) {
  return (await db.select().from(apiKeys).where(eq(apiKeys.id, keyId)).get()) ?? null;
}

/**
 * Everything the key's Durable Object needs to become the authority for it,
 * in one round trip: the key (revoked or not) with its organisation's kind,
 * and the hashes of its unexpired bearer tokens. Null when there is no key
 * with that id and client id.
 */
export async function loadKeyState(db: Database, keyId: string, clientId: string, nowSeconds: number): Promise<KeyState | null> {
  const [keys, tokens] = await db.batch([
    // A subquery, not a join: batched rows come back by column name, and both tables have a `kind`.
    db
      .select({
        key: apiKeys,
        organisationKind: sql<"partner" | "lender">`(SELECT ${organisations.kind} FROM ${organisations} WHERE ${organisations.id} = ${apiKeys.organisationId})`.as(
          "organisation_kind",
        ),
      })
      .from(apiKeys)
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.clientId, clientId))),
    db
      .select({ tokenHash: accessTokens.tokenHash, expiresAt: accessTokens.expiresAt })
      .from(accessTokens)
      .where(and(eq(accessTokens.keyId, keyId), gt(accessTokens.expiresAt, nowSeconds))),
  ]);
  const found = keys[0];
  if (!found) return null;
  const { key, organisationKind } = found;
  return {
    facts: {
      keyId: key.id,
      clientId: key.clientId,
      organisationId: key.organisationId,
      organisationKind,
      environment: key.environment,
      kind: key.kind,
      allowedOrigins: key.allowedOrigins,
    },
    keyHash: key.keyHash,
    revoked: key.revokedAt !== null,
    tokens: new Map(tokens.map((t) => [t.tokenHash, t.expiresAt])),
  };
}
