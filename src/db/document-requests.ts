/**
 * Lenders' document requests. Reads are by deal (callers resolve the deal in
 * the lender's scope first) or by lead (the client hub). Status changes are
 * conditional updates that write a fresh `last_change` token; the statements
 * after them in the batch are guarded on it.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { OPEN_REQUEST_STATUSES, type DocumentRequest, type RequestStatus } from "../domain/documents/types";
import type { Database } from "./client";
import { documentRequests, type DocumentRequestRow } from "./schema/documents";

export const toRequest = (r: DocumentRequestRow): DocumentRequest => ({
  id: r.id,
  dealRef: r.dealRef,
  environment: r.environment,
  lenderOrganisationId: r.lenderOrganisationId,
  leadId: r.leadId,
  itemType: r.itemType,
  documentType: r.documentType,
  label: r.label,
  note: r.note,
  status: r.status,
  requestedVia: r.requestedVia,
  fileCount: r.fileCount,
  requestedAt: r.requestedAt,
  uploadedAt: r.uploadedAt,
  forwardedAt: r.forwardedAt,
  waivedAt: r.waivedAt,
});

export async function requestsOfDeal(db: Database, dealRef: string) {
  return (await db.select().from(documentRequests).where(eq(documentRequests.dealRef, dealRef)).orderBy(asc(documentRequests.requestedAt), asc(documentRequests.id)).all()).map(toRequest);
}

export async function requestsOfLead(db: Database, leadId: string) {
  return (await db.select().from(documentRequests).where(eq(documentRequests.leadId, leadId)).orderBy(asc(documentRequests.requestedAt), asc(documentRequests.id)).all()).map(toRequest);
}

/** One request of one deal; the deal must already be resolved in the caller's scope. */
export async function findRequestOfDeal(db: Database, dealRef: string, id: string) {
  const row = await db.select().from(documentRequests).where(and(eq(documentRequests.dealRef, dealRef), eq(documentRequests.id, id))).get();
  return row ? toRequest(row) : null;
}

export async function findRequestOfLead(db: Database, leadId: string, id: string) {
  const row = await db.select().from(documentRequests).where(and(eq(documentRequests.leadId, leadId), eq(documentRequests.id, id))).get();
  return row ? toRequest(row) : null;
}

export const requestChanged = (id: string, token: string) => sql`exists (select 1 from ${documentRequests} where ${documentRequests.id} = ${id} and ${documentRequests.lastChange} = ${token})`;

/**
 * The client uploaded `files` more files against an open request: it becomes
 * (or stays) `uploaded`. A request already forwarded or waived takes no more.
 */
export const requestUploadedUpdate = (db: Database, id: string, files: number, token: string, at: string) =>
  db
    .update(documentRequests)
    .set({ status: "uploaded", fileCount: sql`${documentRequests.fileCount} + ${files}`, uploadedAt: at, lastChange: token })
    .where(and(eq(documentRequests.id, id), inArray(documentRequests.status, [...OPEN_REQUEST_STATUSES] as RequestStatus[])));
