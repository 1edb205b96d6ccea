/**
 * Lenders' document requests. Reads are by deal (callers resolve the deal in
 * the lender's scope first) or by lead (the client hub). Status changes are
 * conditional updates that write a fresh `last_change` token; the statements
 * after them in the batch are guarded on it.
 */
import { and, asc, count, eq, inArray, notInArray, sql, type SQL } from "drizzle-orm";
import type { Scope } from "../../domain/identity/caller";
import { REQUEST_CLOSED_DEAL_STATUSES } from "../../domain/documents/requests";
import { OPEN_REQUEST_STATUSES, type DocumentRequest, type RequestStatus } from "../../domain/documents/types";
import type { Database } from "../client";
import { toDocument } from "./documents";
import { insertWhere } from "../guarded";
import { deals } from "../schema/deals";
import { documentRequests, documents, type DocumentRequestRow } from "../schema/documents";
import { writeOrder } from "../write-order";

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

/**
 * The document requests of one deal.
 * Keyed by the deal's ref alone on purpose: a ref is the deal's primary key, and every caller
 * holds it only from a read already scoped to the organisation and environment (the lender's
 * `requireDeal`/`findDeal`, the partner's lead-scoped deals, the hub's lead opened by its link),
 * so the child rows cannot be another account's. Repeating the condition here would need a join
 * (messages and requests carry no organisation column) for no added guarantee.
 */
export async function requestsOfDeal(db: Database, dealRef: string) {
  return (await db.select().from(documentRequests).where(eq(documentRequests.dealRef, dealRef)).orderBy(asc(documentRequests.requestedAt), asc(writeOrder(documentRequests))).all()).map(toRequest);
}

export async function requestsOfLead(db: Database, leadId: string) {
  return (await db.select().from(documentRequests).where(eq(documentRequests.leadId, leadId)).orderBy(asc(documentRequests.requestedAt), asc(writeOrder(documentRequests))).all()).map(toRequest);
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
 * The client uploaded `files` more files against an open request, whose
 * file count was `seenCount` when read: it becomes (or stays) `uploaded`. A
 * request already forwarded or waived, or one another upload changed since the
 * read, takes nothing (the caller reads again).
 */
export const requestUploadedUpdate = (db: Database, id: string, seenCount: number, files: number, token: string, at: string, also?: SQL) =>
  db
    .update(documentRequests)
    .set({ status: "uploaded", fileCount: sql`${documentRequests.fileCount} + ${files}`, uploadedAt: at, lastChange: token })
    .where(and(eq(documentRequests.id, id), eq(documentRequests.fileCount, seenCount), inArray(documentRequests.status, [...OPEN_REQUEST_STATUSES] as RequestStatus[]), also));

const openStatuses = [...OPEN_REQUEST_STATUSES] as RequestStatus[];

/** Requests that count toward the per-deal limit: requested or uploaded. */
export async function openRequestCount(db: Database, dealRef: string) {
  const row = await db.select({ n: count() }).from(documentRequests).where(and(eq(documentRequests.dealRef, dealRef), inArray(documentRequests.status, openStatuses))).get();
  return row?.n ?? 0;
}

export interface NewDocumentRequest extends DocumentRequest {
  /** The token written as `last_change`; the notification of the same batch is guarded on it. */
  token: string;
}

/**
 * The request, inserted only while the deal takes requests (live, not declined
 * or funded) and has fewer than `limit` open ones. The count is read by the
 * INSERT itself, so parallel creates cannot pass the limit together.
 */
export function requestInsertWhere(db: Database, r: NewDocumentRequest, limit: number) {
  const openOfDeal = sql`(select count(*) from ${documentRequests} where ${documentRequests.dealRef} = ${r.dealRef} and ${inArray(documentRequests.status, openStatuses)})`;
  const { token, ...request } = r;
  return insertWhere(db, documentRequests, { ...request, lastChange: token }, sql`${openOfDeal} < ${limit} and ${dealTakesRequestsNow(r.dealRef)}`);
}

/** Holds while the deal is live and takes requests (not declined or funded): domain/documents/requests.ts `dealTakesRequests`, read by the statement itself. */
const dealTakesRequestsNow = (dealRef: string) =>
  sql`exists (select 1 from ${deals} where ${deals.ref} = ${dealRef} and ${deals.deletedAt} is null and ${notInArray(deals.status, [...REQUEST_CLOSED_DEAL_STATUSES])})`;

/** Open → waived, for this deal's request only. */
export const requestWaivedUpdate = (db: Database, dealRef: string, id: string, token: string, at: string) =>
  db
    .update(documentRequests)
    .set({ status: "waived", waivedAt: at, lastChange: token })
    .where(and(eq(documentRequests.dealRef, dealRef), eq(documentRequests.id, id), inArray(documentRequests.status, openStatuses)));

/**
 * Uploaded → forwarded: the files reached the lender. Only an `uploaded`
 * request moves, so whichever of the files read and the webhook delivery comes
 * first forwards it and the other changes nothing. `scope` confines the update
 * to the lender and environment the caller acts for.
 */
export const requestForwardedUpdate = (db: Database, scope: Scope, id: string, token: string, at: string) =>
  db
    .update(documentRequests)
    .set({ status: "forwarded", forwardedAt: at, lastChange: token })
    .where(
      and(
        eq(documentRequests.id, id),
        eq(documentRequests.lenderOrganisationId, scope.organisationId),
        eq(documentRequests.environment, scope.environment),
        eq(documentRequests.status, "uploaded"),
      ),
    );

/** The files of one request among `ids` (a `request.fulfilled` detail's list), in one query. */
export async function filesOfRequest(db: Database, requestId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return (await db.select().from(documents).where(and(eq(documents.requestId, requestId), inArray(documents.id, ids))).all()).map(toDocument);
}

/**
 * One file of the request is taken back by the business: the request's count and status become
 * `next` (domain/documents/removal.ts `requestAfterRemoval`), only if the request is still as it
 * was read (`seen`), the file is still one of its client uploads, and the deal still takes requests.
 * The first statement of the removal's batch; the file's delete and the lender's event are guarded
 * on the token it writes.
 */
export const requestFileRemovedUpdate = (
  db: Database,
  seen: Pick<DocumentRequest, "id" | "dealRef" | "status" | "fileCount">,
  documentId: string,
  next: Pick<DocumentRequest, "status" | "fileCount" | "uploadedAt" | "forwardedAt">,
  token: string,
) =>
  db
    .update(documentRequests)
    .set({ status: next.status, fileCount: next.fileCount, uploadedAt: next.uploadedAt, forwardedAt: next.forwardedAt, lastChange: token })
    .where(
      and(
        eq(documentRequests.id, seen.id),
        eq(documentRequests.status, seen.status),
        eq(documentRequests.fileCount, seen.fileCount),
        sql`exists (select 1 from ${documents} where ${documents.id} = ${documentId} and ${documents.requestId} = ${seen.id} and ${documents.source} = 'client_upload')`,
        dealTakesRequestsNow(seen.dealRef),
      ),
    );

/** The file's row, deleted only if `guard` holds (the request's update of the same batch won). */
export const requestFileDeleteWhere = (db: Database, documentId: string, guard: SQL) => db.delete(documents).where(and(eq(documents.id, documentId), guard));
