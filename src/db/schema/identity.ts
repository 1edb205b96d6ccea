import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const organisations = sqliteTable("organisations", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  kind: text("kind", { enum: ["partner", "lender"] }).notNull(),
  createdAt: text("created_at").notNull(),
});

export const apiKeys = sqliteTable(
  "api_keys",
  {
    /** The random key id inside the client id; the row's primary key. */
    id: text("id").primaryKey(),
    clientId: text("client_id").notNull().unique(),
    organisationId: text("organisation_id").notNull().references(() => organisations.id),
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    kind: text("kind", { enum: ["partner", "lender", "publishable"] }).notNull(),
    /** SHA-256 hex of the whole key; the key itself is never stored. */
    keyHash: text("key_hash").notNull(),
    /** JSON array of origins a publishable key may be used from. */
    allowedOrigins: text("allowed_origins", { mode: "json" }).$type<string[]>().notNull().default([]),
    createdAt: text("created_at").notNull(),
    revokedAt: text("revoked_at"),
  },
  (t) => [index("api_keys_organisation").on(t.organisationId)],
);

export const accessTokens = sqliteTable(
  "access_tokens",
  {
    /** SHA-256 hex of the bearer token. */
    tokenHash: text("token_hash").primaryKey(),
    keyId: text("key_id").notNull().references(() => apiKeys.id),
    expiresAt: integer("expires_at").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("access_tokens_key").on(t.keyId), index("access_tokens_expiry").on(t.expiresAt)],
);

export const idempotencyRecords = sqliteTable("idempotency_records", {
  /** `<organisation>:<environment>:<method> <path>:<Idempotency-Key>` */
  scopeKey: text("scope_key").primaryKey(),
  requestHash: text("request_hash").notNull(),
  status: integer("status").notNull(),
  responseBody: text("response_body").notNull(),
  responseHeaders: text("response_headers", { mode: "json" }).$type<Record<string, string>>().notNull(),
  expiresAt: integer("expires_at").notNull(),
});
