import { z } from "@hono/zod-openapi";
import { OPEN_REQUESTS_PER_DEAL } from "../../../domain/documents/types";
import { DOCUMENT_REQUEST_STATUSES } from "../../../domain/reference/values";
import { Timestamp } from "./common";
import { FORMULA_CELLS } from "./document";

type RequestStatusValue = (typeof DOCUMENT_REQUEST_STATUSES)[number]["value"];
const RequestStatus = z.enum(DOCUMENT_REQUEST_STATUSES.map((s) => s.value) as unknown as [RequestStatusValue, ...RequestStatusValue[]]);

export const DealDocument = z
  .object({
    id: z.string(),
    document_type: z.string(),
    filename: z.string(),
    content_type: z.string(),
    size_bytes: z.number().int(),
    uploaded_at: Timestamp,
    source: z.enum(["partner_upload", "client_upload"]),
    request_id: z.string().nullable().openapi({ description: "The document request a client upload answered; null for the partner's uploads." }),
    formula_cells: z.boolean().openapi({ description: FORMULA_CELLS, example: false }),
    url: z.string().openapi({ format: "uri", description: "Signed download link, valid for 1 hour; read the list again for a fresh one." }),
  })
  .openapi("DealDocument");

export const DocumentRequest = z
  .object({
    id: z.string().openapi({ example: "dreq_9QJm2L0xk4T7aPz1Bv3c" }),
    item_type: z.string().openapi({ example: "bank_statements_6m", description: "A value of the `document-request-items` enum list." }),
    document_type: z.string(),
    label: z.string(),
    note: z.string().nullable(),
    status: RequestStatus,
    requested_via: z.string().openapi({ example: "hub" }),
    requested_at: Timestamp,
    uploaded_at: Timestamp.nullable(),
    forwarded_at: Timestamp.nullable(),
    waived_at: Timestamp.nullable(),
    file_count: z.number().int(),
    has_files: z.boolean(),
  })
  .openapi("DocumentRequest");

export const OutstandingRequest = z
  .object({ request_id: z.string(), document_type: z.string(), label: z.string(), requested_at: Timestamp })
  .openapi("OutstandingRequest");

export const DocumentRequestResult = z.object({ request: DocumentRequest }).openapi("DocumentRequestResult");

export const DocumentRequestList = z
  .object({
    requests: z.array(DocumentRequest),
    count: z.number().int(),
    open_count: z.number().int().openapi({ description: `Requested or uploaded; at most ${OPEN_REQUESTS_PER_DEAL}.` }),
  })
  .openapi("DocumentRequestList");

export const RequestFiles = z
  .object({ request_id: z.string(), status: RequestStatus, files: z.array(DealDocument) })
  .openapi("DocumentRequestFiles");

export const DealDocumentList = z
  .object({
    documents: z.array(DealDocument),
    outstanding_requests: z.array(OutstandingRequest),
    has_statements: z.boolean(),
    count: z.number().int(),
  })
  .openapi("DealDocumentList");

export const RequestParams = z.object({
  ref: z.string().min(1).max(32).openapi({ param: { name: "ref", in: "path" }, example: "DL-7K3M9Q2A", description: "Case-insensitive deal reference." }),
  id: z.string().min(1).max(64).openapi({ param: { name: "id", in: "path" }, example: "dreq_9QJm2L0xk4T7aPz1Bv3c" }),
});
