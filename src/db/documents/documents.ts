/**
 * Documents on leads. Reads are by lead (the partner's, already scoped by the
 * caller's lead lookup) or by deal (what one lender may see: the partner's
 * accepted uploads on the lead plus the client's uploads against that deal's
 * requests). Writes are statements for the callers' batches.
 */
import { and, asc, count, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import type { StoredDocument } from "../../domain/documents/types";
import type { Database } from "../client";
import { insertWhere } from "../guarded";
import { documents, type DocumentRow } from "../schema/documents";
import { writeOrder } from "../write-order";

export const toDocument = (r: DocumentRow): StoredDocument => ({
  id: r.id,
  environment: r.environment,
  leadId: r.leadId,
  partnerOrganisationId: r.partnerOrganisationId,
  dealRef: r.dealRef,
  requestId: r.requestId,
  source: r.source,
  documentType: r.documentType,
  filename: r.filename,
  contentType: r.contentType,
  byteSize: r.byteSize,
  state: r.state,
  reason: r.reason,
  storageKey: r.storageKey,
  statement: r.statement,
  formulaCells: r.formulaCells,
  receivedAt: r.receivedAt,
  decidedAt: r.decidedAt,
});

/** A document's row, written only if `guard` holds: a file of an upload that may lose its race. */
export const documentInsertWhere = (db: Database, d: StoredDocument, guard: SQL) => insertWhere(db, documents, { ...d }, guard);

/** Every document of a lead, oldest first (partner and client uploads). */
export async function documentsOfLead(db: Database, leadId: string) {
  return (await db.select().from(documents).where(eq(documents.leadId, leadId)).orderBy(asc(documents.receivedAt), asc(writeOrder(documents))).all()).map(toDocument);
}

/** What the lender of one deal sees: accepted partner uploads of its lead, and client uploads against this deal. */
export async function documentsOfDeal(db: Database, deal: { ref: string; leadId: string | null }) {
  const ofThisDeal = eq(documents.dealRef, deal.ref);
  const sharedOfLead = deal.leadId ? and(eq(documents.leadId, deal.leadId), isNull(documents.dealRef), eq(documents.state, "accepted")) : undefined;
  const rows = await db
    .select()
    .from(documents)
    .where(sharedOfLead ? or(ofThisDeal, sharedOfLead) : ofThisDeal)
    .orderBy(asc(documents.receivedAt), asc(writeOrder(documents)))
    .all();
  return rows.map(toDocument);
}

export async function documentsOfRequests(db: Database, requestIds: string[]) {
  if (requestIds.length === 0) return [];
  return (await db.select().from(documents).where(inArray(documents.requestId, requestIds)).orderBy(asc(documents.receivedAt), asc(writeOrder(documents))).all()).map(toDocument);
}

export async function findDocument(db: Database, id: string) {
  const row = await db.select().from(documents).where(eq(documents.id, id)).get();
  return row ? toDocument(row) : null;
}

/** A document of one lead: a removal looks up the id on the caller's lead only. */
export async function findDocumentOfLead(db: Database, leadId: string, id: string) {
  const row = await db.select().from(documents).where(and(eq(documents.id, id), eq(documents.leadId, leadId))).get();
  return row ? toDocument(row) : null;
}

/** How many files the partner has put on a lead (accepted and rejected alike). */
export async function partnerUploadCount(db: Database, leadId: string) {
  const row = await db
    .select({ n: count() })
    .from(documents)
    .where(and(eq(documents.leadId, leadId), eq(documents.source, "partner_upload")))
    .get();
  return row?.n ?? 0;
}

/** How many files the client has uploaded to a lead through the hub, across all its requests. */
export async function clientUploadCount(db: Database, leadId: string) {
  const row = await db
    .select({ n: count() })
    .from(documents)
    .where(and(eq(documents.leadId, leadId), eq(documents.source, "client_upload")))
    .get();
  return row?.n ?? 0;
}

/** Holds while the lead has room for `files` more client uploads under `cap`: read by the batch's guard itself. */
export const clientUploadsLeave = (leadId: string, files: number, cap: number) =>
  sql`(select count(*) from ${documents} where ${documents.leadId} = ${leadId} and ${documents.source} = 'client_upload') + ${files} <= ${cap}`;

/**
 * The insert of a partner upload that happens only while the lead holds fewer
 * than `cap` partner uploads when the batch reaches it: concurrent uploads
 * cannot push a lead past its cap. The caller checks `findDocument` after.
 */
export const partnerUploadInsertUnderCap = (db: Database, d: StoredDocument, cap: number) =>
  insertWhere(
    db,
    documents,
    { ...d },
    sql`(select count(*) from ${documents} where ${documents.leadId} = ${d.leadId} and ${documents.source} = 'partner_upload') < ${cap}`,
  );

/** Guard for the rows that must exist only if the document's insert happened (its outbox event). */
export const documentExists = (id: string) => sql`exists (select 1 from ${documents} where ${documents.id} = ${id})`;

/**
 * Holds while the partner's upload `id` is on `leadId` in one of `states`: the guard of every
 * statement of its removal, read by each statement itself, so two removals at once write one set.
 */
export const partnerDocumentRemovable = (id: string, leadId: string, states: readonly StoredDocument["state"][]) =>
  sql`exists (select 1 from ${documents} where ${removableWhere(id, leadId, states)})`;

const removableWhere = (id: string, leadId: string, states: readonly StoredDocument["state"][]) =>
  and(eq(documents.id, id), eq(documents.leadId, leadId), eq(documents.source, "partner_upload"), inArray(documents.state, [...states]));

/** The removal itself, under the same conditions as `partnerDocumentRemovable`: put last in the batch, after the rows it guards. */
export const partnerDocumentDelete = (db: Database, id: string, leadId: string, states: readonly StoredDocument["state"][]) =>
  db.delete(documents).where(removableWhere(id, leadId, states));
