/**
 * The lender's side of documents: asking the client for a document, reading
 * and waiving requests, the files a request brought (where its signed links
 * live) and the deal's documents. A request becomes `forwarded` when its files
 * reach the lender: the first files read here or the first successful
 * `request.fulfilled` delivery, whichever comes first (one conditional update).
 */
import type { Statement } from "../../db/batch";
import { isoNow, type Deps } from "../deps";
import {
  filesOfRequest,
  findRequestOfDeal,
  openRequestCount,
  requestChanged,
  requestForwardedUpdate,
  requestInsertWhere,
  requestsOfDeal,
  requestWaivedUpdate,
} from "../../db/documents/requests";
import { notificationInsertWhere } from "../../db/hub/client-notifications";
import { documentsOfRequests } from "../../db/documents/documents";
import type { Deal } from "../../domain/deals/types";
import { dealTakesRequests } from "../../domain/documents/requests";
import { statementSummary } from "../../domain/documents/statements";
import { OPEN_REQUEST_STATUSES, OPEN_REQUESTS_PER_DEAL, type DocumentRequest } from "../../domain/documents/types";
import { dealDocumentView, documentRequestView, outstandingRequestView } from "../../domain/documents/view";
import type { Scope } from "../../domain/identity/caller";
import { REQUEST_ITEM_TYPES, type RequestItemType } from "../../domain/reference/values";
import { randomToken } from "../../lib/crypto";
import { Refusal } from "../../lib/refusal";
import { newId } from "../../lib/ids";
import { dealFiles } from "../deals/files";
import { requireDeal } from "../deals/reads";
import type { ViewContext } from "../views/view-context";
import { runGuarded, runGuardedBatch } from "../../db/batch";

const requestNotFound = () => new Refusal("not_found", "No document request with that id on this deal.");

const isOpen = (r: Pick<DocumentRequest, "status">) => OPEN_REQUEST_STATUSES.includes(r.status);

const refusedOnClosedDeal = (deal: Pick<Deal, "status">) =>
  new Refusal("invalid_transition", `The deal's status is ${deal.status}; no documents can be requested on it.`);

/** The hub path a request's notification deep-links to. */
export const requestDeepLink = (id: string) => `/requests/${id}`;

export interface RequestAsk {
  item_type: RequestItemType;
  note?: string;
}

/**
 * A typed ask for a document. The client is told through a notification with
 * the hub deep link, in the same batch and only if the request was written.
 * Test deals have no lead, so no client: their requests notify nobody.
 */
export async function requestDocument(deps: Deps, scope: Scope, ref: string, ask: RequestAsk) {
  const { db } = deps;
  const deal = await requireDeal(deps, scope, ref);
  if (!dealTakesRequests(deal)) throw refusedOnClosedDeal(deal);
  const item = REQUEST_ITEM_TYPES.find((t) => t.value === ask.item_type)!;
  const at = isoNow(deps);
  const token = randomToken(24);
  const request: DocumentRequest = {
    id: newId("dreq"),
    dealRef: deal.ref,
    environment: deal.environment,
    lenderOrganisationId: deal.lenderOrganisationId,
    leadId: deal.leadId,
    itemType: item.value,
    documentType: item.document_type,
    label: item.label,
    note: ask.note ?? null,
    status: "requested",
    requestedVia: "hub",
    fileCount: 0,
    requestedAt: at,
    uploadedAt: null,
    forwardedAt: null,
    waivedAt: null,
  };
  const statements: Statement[] = [requestInsertWhere(db, { ...request, token }, OPEN_REQUESTS_PER_DEAL)];
  if (deal.leadId) {
    statements.push(
      notificationInsertWhere(
        db,
        { leadId: deal.leadId, environment: deal.environment, kind: "document_request", dealRef: deal.ref, subject: item.label, deepLink: requestDeepLink(request.id) },
        requestChanged(request.id, token),
        at,
      ),
    );
  }
  const guardChanges = await runGuardedBatch(db, statements);
  if (guardChanges !== 1) {
    // The insert's guard failed: the deal closed meanwhile, or the limit was reached.
    const now = await requireDeal(deps, scope, ref);
    if (!dealTakesRequests(now)) throw refusedOnClosedDeal(now);
    throw new Refusal("too_many_open_requests", `At most ${OPEN_REQUESTS_PER_DEAL} requests may be open (requested or uploaded) on a deal; waive one or wait for files to be forwarded.`, {
      extra: { limit: OPEN_REQUESTS_PER_DEAL, open: await openRequestCount(db, deal.ref) },
    });
  }
  return documentRequestView(request);
}

export async function dealRequests(deps: Deps, scope: Scope, ref: string) {
  const { db } = deps;
  const deal = await requireDeal(deps, scope, ref);
  const requests = await requestsOfDeal(db, deal.ref);
  return { requests: requests.map(documentRequestView), count: requests.length, open_count: requests.filter(isOpen).length };
}

async function requireRequest(deps: Deps, scope: Scope, ref: string, id: string) {
  const { db } = deps;
  const deal = await requireDeal(deps, scope, ref);
  const request = await findRequestOfDeal(db, deal.ref, id);
  if (!request) throw requestNotFound();
  return { deal, request };
}

/** Uploaded → forwarded, once; true when this call moved it. */
export async function forwardRequest(deps: Deps, scope: Scope, id: string) {
  const { db } = deps;
  return (await runGuarded(db, requestForwardedUpdate(db, scope, id, randomToken(24), isoNow(deps)))) === 1;
}

/** The request's files with signed links: reading them hands them to the lender, so an `uploaded` request becomes `forwarded`. */
export async function requestFiles(ctx: ViewContext, scope: Scope, ref: string, id: string) {
  const { deal, request } = await requireRequest(ctx, scope, ref, id);
  let status = request.status;
  if (status === "uploaded") {
    await forwardRequest(ctx, scope, request.id);
    status = (await findRequestOfDeal(ctx.db, deal.ref, request.id))!.status;
  }
  const stored = await documentsOfRequests(ctx.db, [request.id]);
  const files = await Promise.all(stored.map(async (d) => dealDocumentView(d, await ctx.links.file(d.storageKey))));
  return { request_id: request.id, status, files };
}

export async function waiveRequest(deps: Deps, scope: Scope, ref: string, id: string) {
  const { db } = deps;
  const { deal, request } = await requireRequest(deps, scope, ref, id);
  const changes = await runGuarded(db, requestWaivedUpdate(db, deal.ref, request.id, randomToken(24), isoNow(deps)));
  const now = (await findRequestOfDeal(db, deal.ref, request.id))!;
  if (changes !== 1) {
    throw new Refusal("invalid_transition", `The request is ${now.status}; only a requested or uploaded request can be waived.`);
  }
  return documentRequestView(now);
}

/** `GET /v1/deals/{ref}/documents`: the files (as on the deal), what is still asked for, and whether a statement was parsed. */
export async function dealDocuments(ctx: ViewContext, scope: Scope, ref: string) {
  const deal = await requireDeal(ctx, scope, ref);
  const [files, requests] = await Promise.all([dealFiles(ctx, deal), requestsOfDeal(ctx.db, deal.ref)]);
  return {
    documents: [...files.views],
    outstanding_requests: requests.filter((r) => r.status === "requested").map(outstandingRequestView),
    has_statements: statementSummary(files.stored).has_statements,
    count: files.views.length,
  };
}

interface FulfilledRequestDetail {
  id: string;
  files?: { id: string; [key: string]: unknown }[];
  [key: string]: unknown;
}

const isFulfilledDetail = (value: unknown): value is FulfilledRequestDetail =>
  typeof value === "object" && value !== null && typeof (value as { id?: unknown }).id === "string" && Array.isArray((value as { files?: unknown }).files);

/**
 * A `request.fulfilled` detail with each file's signed `url` added, for
 * webhook bodies and the events list. The stored row keeps no links; the
 * documents are read by id (one query, confined to the request). A file that
 * no longer exists gets `url: null`.
 */
export async function withFileLinks(ctx: ViewContext, request: unknown) {
  if (!isFulfilledDetail(request)) return request;
  const files = request.files!;
  const stored = await filesOfRequest(ctx.db, request.id, files.map((f) => f.id));
  const keyOf = new Map(stored.map((d) => [d.id, d.storageKey]));
  const linked = await Promise.all(
    files.map(async (f) => {
      const key = keyOf.get(f.id);
      return { ...f, url: key ? await ctx.links.file(key) : null };
    }),
  );
  return { ...request, files: linked };
}
