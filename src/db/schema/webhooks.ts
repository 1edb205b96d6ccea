import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Webhook endpoints of partner and lender organisations, per environment. */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    organisationId: text("organisation_id").notNull(),
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    /** Which API registered it; it receives that API's events only. */
    api: text("api", { enum: ["partner", "lender"] }).notNull(),
    /** The host kind it was registered on: a sandbox-host endpoint receives only sandbox and test events. */
    hostKind: text("host_kind", { enum: ["sandbox", "production"] }).notNull(),
    url: text("url").notNull(),
    events: text("events", { mode: "json" }).$type<string[]>().notNull(),
    payloadMode: text("payload_mode", { enum: ["full", "reference"] }).notNull(),
    /** A person's label for the endpoint ("Production CRM"): plain text, at most 200 characters; null when none. */
    description: text("description"),
    active: integer("active", { mode: "boolean" }).notNull(),
    /** Why it was switched off: `gone` (410), `exhausted` (20 exhausted deliveries), `manual`. */
    deactivatedReason: text("deactivated_reason"),
    /** AES-GCM sealed `whsec_…` secret (src/lib/secret-box.ts); never stored plain. */
    secretSealed: text("secret_sealed").notNull(),
    /** The secret before the last rotation, valid until `previous_secret_expires_at`. */
    previousSecretSealed: text("previous_secret_sealed"),
    previousSecretExpiresAt: text("previous_secret_expires_at"),
    failureCount: integer("failure_count").notNull().default(0),
    consecutiveExhausted: integer("consecutive_exhausted").notNull().default(0),
    lastSuccessAt: text("last_success_at"),
    lastFailureAt: text("last_failure_at"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    /** Soft delete: deliveries and their attempts stay readable to operators. */
    deletedAt: text("deleted_at"),
  },
  (t) => [
    index("webhook_endpoints_scope").on(t.organisationId, t.environment, t.api, t.createdAt),
  ],
);

/**
 * One event sent to one endpoint; the body is serialised once and every attempt sends those bytes. The bytes
 * live in R2 (services/webhooks/bodies.ts) under the row's environment, day and `body_hash`; D1 keeps the row.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    endpointId: text("endpoint_id").notNull(),
    organisationId: text("organisation_id").notNull(),
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    eventId: text("event_id").notNull(),
    event: text("event").notNull(),
    payloadMode: text("payload_mode", { enum: ["full", "reference"] }).notNull(),
    /**
     * The body itself only on rows written before migration 0020 (the cron prunes them with their period);
     * empty since, when `body_hash` names it in R2. Kept NOT NULL so the migration is an ADD COLUMN, not a
     * copy of the whole table (which D1's per-query limits would not allow on a full database).
     */
    body: text("body").notNull(),
    /** SHA-256 (hex) of the body's bytes, its name in R2; null on rows that hold their body. */
    bodyHash: text("body_hash"),
    /** pending → succeeded | exhausted | cancelled (endpoint gone, deactivated or deleted). */
    state: text("state", { enum: ["pending", "succeeded", "exhausted", "cancelled"] }).notNull(),
    /** Automatic attempts made; drives the retry schedule. Manual re-sends do not count. */
    attemptCount: integer("attempt_count").notNull().default(0),
    /** When the next automatic attempt is due; also a short lease while an attempt is in flight. */
    nextAttemptAt: text("next_attempt_at"),
    lastStatusCode: integer("last_status_code"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_endpoint_event").on(t.endpointId, t.eventId),
    index("webhook_deliveries_endpoint_created").on(t.endpointId, t.createdAt),
    index("webhook_deliveries_due").on(t.state, t.nextAttemptAt),
    index("webhook_deliveries_created").on(t.createdAt, t.id),
  ],
);

/** Every HTTP attempt of a delivery, successful or not. */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id").notNull(),
    /** Automatic attempt number (1 to 6); null for a manual re-send. */
    attemptNumber: integer("attempt_number"),
    trigger: text("trigger", { enum: ["automatic", "manual"] }).notNull(),
    attemptedAt: text("attempted_at").notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    /** The receiver's answer: its first 2 KB as text, control characters dropped (domain/webhooks/response-excerpt.ts); null when none came. */
    responseBody: text("response_body"),
    durationMs: integer("duration_ms").notNull(),
  },
  (t) => [index("webhook_attempts_delivery").on(t.deliveryId, t.attemptedAt)],
);
