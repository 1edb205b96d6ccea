import { createRoute } from "@hono/zod-openapi";
import { OPEN_REQUESTS_PER_DEAL } from "../../../domain/documents/types";
import { errorResponses, jsonBody, jsonContent, security } from "../../openapi";
import { DealRefParam } from "../../shared/schemas/deal";
import { DocumentRequestBody } from "../../shared/schemas/deal-actions";
import { DealDocumentList, DocumentRequestList, DocumentRequestResult, RequestFiles, RequestParams } from "../../shared/schemas/deal-document";

const tags = ["Documents"];

export const createRequestRoute = createRoute({
  method: "post",
  path: "/deals/{ref}/requests",
  summary: "Ask the client for a document",
  description: `Creates a \`requested\` document request; the client is notified with a deep link into the client hub (test deals have no client, so nobody is notified). At most ${OPEN_REQUESTS_PER_DEAL} requests may be open (requested or uploaded) per deal: the next is 422 \`too_many_open_requests\`. 409 \`invalid_transition\` on a declined or funded deal.`,
  tags,
  security: security.lender,
  request: { params: DealRefParam, body: jsonBody(DocumentRequestBody) },
  responses: {
    200: jsonContent(DocumentRequestResult, "The request"),
    ...errorResponses("invalid_request", "not_found", "invalid_transition", "too_many_open_requests"),
  },
});

export const listRequestsRoute = createRoute({
  method: "get",
  path: "/deals/{ref}/requests",
  summary: "List your document requests on a deal",
  description: "Every request, oldest first, whatever its status.",
  tags,
  security: security.lender,
  request: { params: DealRefParam },
  responses: { 200: jsonContent(DocumentRequestList, "The requests"), ...errorResponses("not_found") },
});

export const requestFilesRoute = createRoute({
  method: "get",
  path: "/deals/{ref}/requests/{id}/files",
  summary: "Read the files a request brought",
  description:
    "The client's uploads against the request, each with a signed download link valid for 1 hour. Reading the files of an `uploaded` request hands them to you: it becomes `forwarded` (as it does on the first successful `request.fulfilled` delivery, whichever comes first).",
  tags,
  security: security.lender,
  request: { params: RequestParams },
  responses: { 200: jsonContent(RequestFiles, "The files"), ...errorResponses("not_found") },
});

export const waiveRequestRoute = createRoute({
  method: "post",
  path: "/deals/{ref}/requests/{id}/waive",
  summary: "Waive a document request",
  description: "You no longer need the document: a requested or uploaded request becomes `waived` and stops counting toward the open limit. Any other status is 409 `invalid_transition`.",
  tags,
  security: security.lender,
  request: { params: RequestParams },
  responses: { 200: jsonContent(DocumentRequestResult, "The request"), ...errorResponses("not_found", "invalid_transition") },
});

export const listDocumentsRoute = createRoute({
  method: "get",
  path: "/deals/{ref}/documents",
  summary: "List the deal's documents",
  description:
    "The partner's accepted uploads on the lead and the client's uploads against your requests, each with a signed download link valid for 1 hour, plus the requests still waiting for the client. Cheap enough to poll.",
  tags,
  security: security.lender,
  request: { params: DealRefParam },
  responses: { 200: jsonContent(DealDocumentList, "The documents"), ...errorResponses("not_found") },
});
