import { createRoute, z } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { DOCUMENT_TYPE_VALUES } from "../../../domain/reference/values";
import type { AppEnv } from "../../../app-env";
import { Refusal } from "../../../lib/refusal";
import { errorResponses, jsonContent, security } from "../../openapi";
import { PartnerDocument } from "../../shared/schemas/document";
import { UPLOAD_BODY_LIMIT_BYTES } from "../../../middleware/body-limit";
import { DOCUMENTS_PER_LEAD } from "../../../services/documents/lead-documents";
import { LeadIdParam } from "../../shared/schemas/lead";

const tags = ["Documents"];

/** One file's limit: the multipart body limit, checked again on the file itself. */
export const DOCUMENT_MAX_BYTES = UPLOAD_BODY_LIMIT_BYTES;



const PartnerDocumentList = z
  .object({ lead_id: z.string(), documents: z.array(PartnerDocument), count: z.number().int() })
  .openapi("PartnerDocumentList");

/** Fields are strict like every JSON body: an unknown form field is refused by name. */
export const DocumentUploadForm = z
  .strictObject({
    file: z
      .custom<File>((value) => value instanceof File, { message: "file must be a file part (a form field sent with a filename)." })
      .openapi({ type: "string", format: "binary", description: `The file, at most ${DOCUMENT_MAX_BYTES} bytes. Its type is read from its bytes, not from the part's Content-Type.` }),
    document_type: z.enum(DOCUMENT_TYPE_VALUES).openapi({ description: "From GET /enums/document-types.", example: "bank_statements" }),
  })
  .openapi("DocumentUpload");

const DocumentParams = LeadIdParam.extend({
  document_id: z.string().max(64).openapi({ param: { name: "document_id", in: "path" } }),
});

/** Before the form is parsed: anything but multipart is 415 with a message that says what to send. */
const requireMultipart = createMiddleware<AppEnv>(async (c, next) => {
  const type = (c.req.header("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "multipart/form-data") {
    throw new Refusal("unsupported_media_type", "Send the document as multipart/form-data with the parts `file` and `document_type`.");
  }
  await next();
});

export const uploadDocumentRoute = createRoute({
  method: "post",
  path: "/leads/{id}/documents",
  summary: "Upload a document to a lead",
  description: `\`multipart/form-data\` with \`file\` and \`document_type\` (415 for any other body). The document is decided at once: \`accepted\`, or \`rejected\` with a \`reason\` (\`empty_file\`, \`unsupported_file_type\`, \`unreadable_statement\`); rejected documents are kept and listed. A bank statement in CSV or OFX is parsed into the lead's \`statements\` and \`trading.monthly_revenue\` (basis \`statements\`). Fires \`document.accepted\` or \`document.rejected\`. At most ${DOCUMENTS_PER_LEAD} documents per lead (422 \`cap_exceeded\`); a file over ${DOCUMENT_MAX_BYTES} bytes is 413.`,
  tags,
  security: security.partner,
  middleware: [requireMultipart] as const,
  request: {
    params: LeadIdParam,
    body: { required: true, content: { "multipart/form-data": { schema: DocumentUploadForm } } },
  },
  responses: {
    201: { ...jsonContent(PartnerDocument, "The decided document"), headers: { Location: { schema: { type: "string" }, description: "URL of the document" } } },
    ...errorResponses("invalid_request", "not_found", "unsupported_media_type", "cap_exceeded"),
  },
});

export const listDocumentsRoute = createRoute({
  method: "get",
  path: "/leads/{id}/documents",
  summary: "List a lead's documents",
  description: "Every document the lead holds, oldest first, accepted and rejected, with the rejection reason.",
  tags,
  security: security.partner,
  request: { params: LeadIdParam },
  responses: { 200: jsonContent(PartnerDocumentList, "The lead's documents"), ...errorResponses("invalid_request", "not_found") },
});

export const getDocumentRoute = createRoute({
  method: "get",
  path: "/leads/{id}/documents/{document_id}",
  summary: "Read one document of a lead",
  tags,
  security: security.partner,
  request: { params: DocumentParams },
  responses: { 200: jsonContent(PartnerDocument, "The document"), ...errorResponses("invalid_request", "not_found") },
});

export const removeDocumentRoute = createRoute({
  method: "delete",
  path: "/leads/{id}/documents/{document_id}",
  summary: "Remove a rejected document from a lead",
  description:
    "Takes a **rejected** document off the lead: it leaves the lead's lists and frees its place under the cap, its file is deleted, and `document.removed` fires (the partner's; no lender ever sees a rejected document). Allowed in every lead state. An accepted document is on every routed lender's deal and stays: 409 `invalid_transition`, as for a file the business uploaded in its client hub (only the business removes those). Another account's or environment's lead or document, or one already removed: 404. [Documents](/docs/guides/documents#removing-a-rejected-document).",
  tags,
  security: security.partner,
  request: { params: DocumentParams },
  responses: { 204: { description: "Removed" }, ...errorResponses("invalid_request", "not_found", "invalid_transition") },
});
