import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { DocumentSource, DocumentState, ParsedStatement, RequestStatus } from "../../domain/documents/types";

/**
 * Files held for a lead: uploaded by the partner (`partner_upload`, seen by
 * every lender the lead is routed to) or by the business in the client hub
 * (`client_upload`, against one lender's document request, seen by that
 * lender only). The bytes live in R2 under `storage_key`; rows never hold them.
 */
export const documents = sqliteTable(
  "documents",
  {
    id: text("id").primaryKey(),
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    leadId: text("lead_id").notNull(),
    /** The partner that owns the lead. */
    partnerOrganisationId: text("partner_organisation_id").notNull(),
    /** Set for client uploads against a lender's request: only that deal's lender sees the file. */
    dealRef: text("deal_ref"),
    requestId: text("request_id"),
    source: text("source").$type<DocumentSource>().notNull(),
    documentType: text("document_type").notNull(),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    byteSize: integer("byte_size").notNull(),
    /** accepted | rejected, decided in the request that stores the file; the decision and its reason are the partner's `document.*` events. */
    state: text("state").$type<DocumentState>().notNull(),
    reason: text("reason"),
    storageKey: text("storage_key").notNull(),
    /** What a parsed CSV or OFX bank statement said; null for every other file. */
    statement: text("statement", { mode: "json" }).$type<ParsedStatement | null>(),
    /** A CSV holding a cell a spreadsheet would run as a formula (src/domain/documents/formula-cells.ts); false for every other file. */
    formulaCells: integer("formula_cells", { mode: "boolean" }).notNull().default(false),
    receivedAt: text("received_at").notNull(),
    decidedAt: text("decided_at"),
  },
  (t) => [
    index("documents_lead").on(t.leadId, t.receivedAt, t.id),
    // Partial: most documents have neither (migration 0019).
    index("documents_deal").on(t.dealRef, t.receivedAt, t.id).where(sql`${t.dealRef} is not null`),
    index("documents_request").on(t.requestId, t.receivedAt, t.id).where(sql`${t.requestId} is not null`),
    index("documents_storage_key").on(t.storageKey),
  ],
);

/**
 * A lender's typed ask for a document, answered by the business in the client
 * hub. Open means not forwarded and not waived; at most 20 open per deal.
 */
export const documentRequests = sqliteTable(
  "document_requests",
  {
    id: text("id").primaryKey(),
    dealRef: text("deal_ref").notNull(),
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    lenderOrganisationId: text("lender_organisation_id").notNull(),
    /** Null for a test deal's requests. */
    leadId: text("lead_id"),
    itemType: text("item_type").notNull(),
    documentType: text("document_type").notNull(),
    label: text("label").notNull(),
    note: text("note"),
    status: text("status").$type<RequestStatus>().notNull(),
    requestedVia: text("requested_via").notNull(),
    fileCount: integer("file_count").notNull().default(0),
    requestedAt: text("requested_at").notNull(),
    uploadedAt: text("uploaded_at"),
    forwardedAt: text("forwarded_at"),
    waivedAt: text("waived_at"),
    /** Random token of the last winning conditional update (see lead_routing.last_change). */
    lastChange: text("last_change").notNull(),
  },
  (t) => [
    index("document_requests_deal").on(t.dealRef, t.requestedAt, t.id),
    index("document_requests_lead").on(t.leadId, t.requestedAt),
  ],
);

/**
 * What the business is told, with the hub deep link to act on it. The service
 * sends no email itself: an outbound mail channel reads these rows, and the
 * hub lists them.
 */
export const clientNotifications = sqliteTable(
  "client_notifications",
  {
    id: text("id").primaryKey(),
    leadId: text("lead_id").notNull(),
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    /** `document_request`, `message`, `agreement`. */
    kind: text("kind").notNull(),
    dealRef: text("deal_ref"),
    subject: text("subject").notNull(),
    /** Hub path (no origin, no token): `/requests/req_…`, `/deals/DL-…/messages`. */
    deepLink: text("deep_link").notNull(),
    createdAt: text("created_at").notNull(),
    readAt: text("read_at"),
  },
  (t) => [index("client_notifications_lead").on(t.leadId, t.createdAt)],
);

export type DocumentRow = typeof documents.$inferSelect;
export type DocumentRequestRow = typeof documentRequests.$inferSelect;
