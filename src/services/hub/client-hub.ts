/**
 * The client hub: where the business behind a lead answers document
 * requests, replies to lenders and completes its accepted deal. The hub link
 * (lead id + token) is the only credential; every lookup below is tied to that
 * lead. Each change and the lender event it fires go in one batch, decided by
 * a conditional update, so a double submit or a race fires one event.
 */
import { leadOpenerName } from "../../db/portal/members";
import { adviserInWords } from "../../domain/portal/profile";
import { sealPayoutAccount } from "../deals/payout-account";
import {
  accountSubmittedUpdate,
  agreementKeyOf,
  agreementSignedUpdate,
  dealsOfLead,
  findDealOfLead,
  offerLabelsOfDeals,
} from "../../db/hub/client-hub";
import { notificationsOfLead } from "../../db/hub/client-notifications";
import { isoNow, type Deps } from "../deps";
import { dealChanged } from "../../db/deals/deals";
import { messageInsert, messagesOfDeal } from "../../db/deals/messages";
import type { Statement } from "../../db/batch";
import { currentOffersOfLead } from "../../db/deals/offers";
import { findRequestOfDeal, findRequestOfLead, requestChanged, requestsOfLead, requestUploadedUpdate } from "../../db/documents/requests";
import { clientUploadCount, clientUploadsLeave, documentInsertWhere, documentsOfLead, documentsOfRequests } from "../../db/documents/documents";
import { eventInsert } from "../../db/webhooks/events";
import { eventInsertWhere } from "../../db/guarded";
import type { Deal, DealMessage } from "../../domain/deals/types";
import { completionView } from "../../domain/deals/view";
import { OPEN_REQUEST_STATUSES, type DocumentRequest, type StoredDocument } from "../../domain/documents/types";
import { decideDocument } from "../../domain/documents/decision";
import { DANGER_NAMES, dangerousContent, isHeif } from "../../domain/documents/file-type";
import { filenameForKind, sanitiseFilename } from "../../domain/documents/filename";
import { documentStorageKey } from "../../domain/documents/view";
import { DOCUMENT_REJECTION_REASONS, type DocumentType } from "../../domain/reference/values";
import { accountSchemeOf, checkAccountDetails, failureOf, type FieldProblem, type FormCheckFailure, type FormProblem } from "../../domain/hub/account-details";
import { checkSignature, signatureVerification } from "../../domain/hub/signature";
import { CLIENT_DOCUMENTS_PER_LEAD_MAX, dealLabel, FILES_PER_UPLOAD_MAX, MESSAGE_BODY_MAX, MESSAGE_SUBJECT_MAX, requestFulfilledDetail } from "../../domain/hub/view";
import type { Lead } from "../../domain/leads/types";
import { normaliseDealReference } from "../../domain/deals/reference";
import { randomToken } from "../../lib/crypto";
import { Refusal, type RefusalCode } from "../../lib/refusal";
import { FORBIDDEN_LINES_MESSAGE, FORBIDDEN_TEXT_MESSAGE, hasForbiddenTextCharacter } from "../../lib/unicode";
import type { Bindings } from "../../lib/env";
import { newId } from "../../lib/ids";
import { checkHubLinkToken, checkHubSession, signHubSession } from "../../lib/signed-links";
import { findLeadWithHubLink } from "../../db/hub/hub-links";
import { hubIsReadOnly, hubLinkExpired, hubSessionExpiry, type HubLinkState } from "../../domain/hub/link";
import { completionReachable, everyOfferDeclined, hubToDo, shownOnOverview } from "../../domain/hub/to-do";
import { findOrganisation } from "../../db/identity/organisations";
import { signingSecretOf } from "../../lib/signing-secret";
import { lenderEvent } from "../deals/events";
import type { Links } from "../views/links";
import { runBatch, runGuardedBatch } from "../../db/batch";
import { putTracked, uploadLanded } from "../uploads/tracked-uploads";

const notFound = () => new Refusal("not_found", "Not found.");

/** The domain says why a form was refused: an empty required field is an invalid request, a filled but unusable one an invalid value. */
const FORM_PROBLEM_CODE: Record<FormProblem, RefusalCode> = { missing: "invalid_request", invalid: "invalid_value" };

/**
 * A refused form as a refusal: the first problem's code, detail and field, and, when there are more,
 * every problem as `errors` (the validation refusals' list), so the page shows each beside its field.
 */
const formRefused = (check: FormCheckFailure) =>
  new Refusal(FORM_PROBLEM_CODE[check.problem], check.message, {
    field: check.field,
    extra: check.problems.length > 1 ? { errors: check.problems.map(({ field, message }) => ({ field, message })) } : undefined,
  });

const HUB_LEAD_ID = /^[A-Za-z0-9_-]{1,64}$/;
export const HUB_TOKEN = /^[0-9a-fA-F]{40}$/;

/** What a hub link or session opens: the lead and its link, or a link that was genuine but has expired. */
export type HubOpening = { lead: Lead; link: HubLinkState; expired: boolean };

/**
 * The lead behind a hub link (`/hub/{lead}/{token}`): null for a wrong token,
 * an old generation's token (the link was rotated) or an unknown lead alike;
 * `expired` when the token is the current one but its 30 days are over.
 */
export async function openHub(deps: Deps, leadId: string, token: string, now = deps.clock().getTime()): Promise<HubOpening | null> {
  const { db, env } = deps;
  if (!HUB_LEAD_ID.test(leadId) || !HUB_TOKEN.test(token)) return null;
  const found = await findLeadWithHubLink(db, leadId);
  if (!found || !(await checkHubLinkToken(signingSecretOf(env), leadId, found.link.generation, token))) return null;
  return { ...found, expired: hubLinkExpired(found.link, now) };
}

/** The lead behind a hub session cookie: null unless it is genuine, unexpired and of the link's current generation. */
export async function openHubSession(deps: Deps, leadId: string, cookie: string, now = deps.clock().getTime()): Promise<HubOpening | null> {
  const { db, env } = deps;
  if (!HUB_LEAD_ID.test(leadId)) return null;
  const generation = await checkHubSession(signingSecretOf(env), leadId, cookie, Math.floor(now / 1000));
  if (generation === null) return null;
  const found = await findLeadWithHubLink(db, leadId);
  if (!found || found.link.generation !== generation || hubLinkExpired(found.link, now)) return null;
  return { ...found, expired: false };
}

/** The session cookie's value and lifetime for a link just opened. */
export async function hubSessionFor(deps: Deps, opening: HubOpening, now = deps.clock().getTime()) {
  const { env } = deps;
  const expires = hubSessionExpiry(opening.link, now);
  return { value: await signHubSession(signingSecretOf(env), opening.lead.id, opening.link.generation, expires), maxAgeSeconds: Math.max(0, expires - Math.floor(now / 1000)) };
}

export interface HubDeal {
  deal: Deal;
  label: string;
}

async function hubDeals(deps: Deps, lead: Lead): Promise<HubDeal[]> {
  const { db } = deps;
  const deals = await dealsOfLead(db, lead.id);
  const labels = await offerLabelsOfDeals(db, deals.map((d) => d.ref));
  return deals.map((deal) => ({ deal, label: dealLabel(deal, labels.get(deal.ref)) }));
}

async function hubDeal(deps: Deps, lead: Lead, ref: string): Promise<HubDeal> {
  const { db } = deps;
  const deal = await findDealOfLead(db, lead.id, normaliseDealReference(ref));
  if (!deal) throw notFound();
  const labels = await offerLabelsOfDeals(db, [deal.ref]);
  return { deal, label: dealLabel(deal, labels.get(deal.ref)) };
}

/**
 * The overview: the lead, its adviser (the member of the partner firm who opened it, by name, and the firm), what the business has
 * to do now, and its offers, requests, deals, notifications and uploads; once an offer is
 * accepted, only that deal's (domain/hub/to-do.ts).
 */
export async function hubOverview(deps: Deps, lead: Lead) {
  const { db } = deps;
  const now = new Date(deps.clock().getTime());
  const [deals, requests, notifications, documents, allOffers, adviser, adviserName] = await Promise.all([
    hubDeals(deps, lead),
    requestsOfLead(db, lead.id),
    notificationsOfLead(db, lead.id),
    documentsOfLead(db, lead.id),
    currentOffersOfLead(db, lead.id),
    findOrganisation(db, lead.organisationId),
    leadOpenerName(db, lead.organisationId, lead.id),
  ]);
  const byRef = new Map(deals.map((d) => [d.deal.ref, d]));
  const openRequests = requests.filter((r) => byRef.has(r.dealRef) && OPEN_REQUEST_STATUSES.includes(r.status)).map((request) => ({ request, deal: byRef.get(request.dealRef)! }));
  const shown = shownOnOverview(allOffers, deals, openRequests);
  // A few deals per lead at most: one read of each shown deal's thread tells whether the provider is waiting on an answer.
  const threads = await Promise.all(shown.deals.map((d) => messagesOfDeal(db, d.deal.ref)));
  const toDoDeals = shown.deals.map((d, i) => ({ ...d, awaitingReply: threads[i]!.at(-1)?.direction === "lender_to_borrower" }));
  return {
    lead,
    // "Your adviser: Ada Lovelace, Acme Introducers": the member who opened the lead, by the name they set; the firm alone without one.
    adviser: adviser ? adviserInWords(adviserName, adviser.name) : null,
    deals: shown.deals.map((d) => ({ ...d, completionReachable: completionReachable(d.deal, allOffers) })),
    offers: shown.offers,
    hiddenDeals: shown.hidden,
    everyOfferDeclined: everyOfferDeclined(allOffers),
    openRequests: shown.requests,
    toDo: hubToDo({ offers: shown.offers, leadState: lead.state, requests: shown.requests, deals: toDoDeals, readOnly: hubIsReadOnly(lead), now }),
    // The closed deals' notifications lead to pages about an application that is over: left out with the deals.
    notifications: shown.accepted ? notifications.filter((n) => n.dealRef === null || n.dealRef === shown.accepted) : notifications,
    uploads: documents.filter((d) => d.source === "client_upload"),
  };
}

async function hubRequest(deps: Deps, lead: Lead, requestId: string) {
  const { db } = deps;
  const request = await findRequestOfLead(db, lead.id, requestId);
  if (!request) throw notFound();
  const deal = await hubDeal(deps, lead, request.dealRef);
  return { request, deal };
}

export async function requestPage(deps: Deps, lead: Lead, requestId: string) {
  const { db } = deps;
  const { request, deal } = await hubRequest(deps, lead, requestId);
  return { request, deal, files: await documentsOfRequests(db, [request.id]) };
}

/** `cap_exceeded` naming the limit: a document request takes at most 10 files in all. */
const filesPerRequestCap = (held: number) =>
  new Refusal("cap_exceeded", `A document request takes at most ${FILES_PER_UPLOAD_MAX} files in all; this one holds ${held}.`, {
    field: "file",
    extra: { limit: FILES_PER_UPLOAD_MAX },
  });
/** `cap_exceeded` naming the limit: a lead takes at most 100 files from the client. */
const clientDocumentsCap = () =>
  new Refusal("cap_exceeded", `A lead takes at most ${CLIENT_DOCUMENTS_PER_LEAD_MAX} files from the client; this lead has reached the limit.`, {
    field: "file",
    extra: { limit: CLIENT_DOCUMENTS_PER_LEAD_MAX },
  });
const closedRequest = (status: string) => new Refusal("invalid_transition", `This request is ${status} and takes no more files.`, { field: "file" });
/**
 * A HEIC photo is refused, not stored: lenders receive files as they were sent, most of their
 * browsers and systems cannot open HEIC, and a Worker cannot convert it. The person is told, while
 * still holding the phone, how to send the photo in a form every lender opens.
 */
const heifRefusal = (named: string) =>
  new Refusal(
    "invalid_value",
    `The file ${named} is an iPhone photo in HEIC format, which funding providers cannot open. Send it as a JPEG instead: choose 'Most Compatible' in Settings > Camera > Formats and take the photo again, or take a screenshot of the photo and upload that (a PDF works too).`,
    { field: "file" },
  );
const rejectionLabel = (reason: string) => (DOCUMENT_REJECTION_REASONS.find((r) => r.value === reason)?.label ?? reason).toLowerCase();
/** A racing upload makes this one re-read and try again; a handful of rounds settles any realistic burst. */
const UPLOAD_ATTEMPTS = 8;

/**
 * The business uploads files against an open request: each file is stored in
 * R2, then the documents, the request's move to `uploaded` and
 * `request.fulfilled` go in one batch. The count and file list of the event
 * are the request's after this upload (see `requestUploadedUpdate`).
 */
export async function uploadToRequest(deps: Deps, lead: Lead, requestId: string, files: File[]) {
  const { request, deal } = await hubRequest(deps, lead, requestId);
  return uploadToRequestOfDeal(deps, lead, deal.deal, request, files);
}

/**
 * The upload on a request and deal the caller has already resolved as the lead's (the hub from its
 * link; a test deal's simulation from the deal, whose business `prelude` writes in the same batch:
 * see runGuardedBatch).
 */
export async function uploadToRequestOfDeal(deps: Deps, lead: Lead, deal: Deal, request: DocumentRequest, files: File[], prelude: readonly Statement[] = []) {
  const { db } = deps;
  if (!OPEN_REQUEST_STATUSES.includes(request.status)) throw closedRequest(request.status);
  if (files.length === 0) throw new Refusal("invalid_request", "Choose at least one file to upload.", { field: "file" });
  if (request.fileCount + files.length > FILES_PER_UPLOAD_MAX) throw filesPerRequestCap(request.fileCount);
  const empty = files.find((f) => f.size === 0);
  if (empty) throw new Refusal("invalid_request", `The file ${sanitiseFilename(empty.name)} is empty.`, { field: "file" });

  // Client files are judged exactly as partner uploads are: sniffed bytes, allowed kinds, statements parsed.
  const received = isoNow(deps);
  const documentType = request.documentType as DocumentType;
  const docs: StoredDocument[] = [];
  for (const f of files) {
    const named = sanitiseFilename(f.name);
    const bytes = new Uint8Array(await f.arrayBuffer());
    const danger = dangerousContent(bytes);
    if (danger) throw new Refusal("invalid_request", `The file ${named} is ${DANGER_NAMES[danger]}, which we never accept: upload the document itself.`, { field: "file" });
    const decision = decideDocument(documentType, bytes);
    if (decision.state === "rejected") {
      if (decision.reason === "unsupported_file_type" && isHeif(bytes)) throw heifRefusal(named);
      throw new Refusal("invalid_value", `The file ${named} cannot be used: ${rejectionLabel(decision.reason)}.`, { field: "file" });
    }
    const filename = filenameForKind(named, decision.kind);
    const id = newId("doc");
    docs.push({
      id,
      environment: lead.environment,
      leadId: lead.id,
      partnerOrganisationId: lead.organisationId,
      dealRef: deal.ref,
      requestId: request.id,
      source: "client_upload",
      documentType,
      filename,
      contentType: decision.contentType,
      byteSize: f.size,
      state: "accepted",
      reason: null,
      storageKey: documentStorageKey({ environment: lead.environment, leadId: lead.id, id }),
      statement: decision.statement,
      formulaCells: decision.formulaCells,
      receivedAt: received,
      decidedAt: received,
    });
  }
  await Promise.all(docs.map((d, i) => putTracked(deps, d.storageKey, files[i].stream(), { httpMetadata: { contentType: d.contentType }, customMetadata: { filename: d.filename } })));
  const discard = () => deps.env.DOCUMENTS.delete(docs.map((d) => d.storageKey));

  for (let attempt = 0; attempt < UPLOAD_ATTEMPTS; attempt++) {
    const current = await findRequestOfDeal(db, deal.ref, request.id);
    if (!current || !OPEN_REQUEST_STATUSES.includes(current.status)) {
      await discard();
      throw closedRequest(current?.status ?? "gone");
    }
    if (current.fileCount + docs.length > FILES_PER_UPLOAD_MAX) {
      await discard();
      throw filesPerRequestCap(current.fileCount);
    }
    if ((await clientUploadCount(db, lead.id)) + docs.length > CLIENT_DOCUMENTS_PER_LEAD_MAX) {
      await discard();
      throw clientDocumentsCap();
    }
    const prior = await documentsOfRequests(db, [request.id]);
    // Another upload landed between the two reads: read again.
    if (prior.length !== current.fileCount) continue;
    const at = isoNow(deps);
    const token = randomToken(24);
    const changed = requestChanged(request.id, token);
    const stored = docs.map((d) => ({ ...d, receivedAt: at, decidedAt: at }));
    const statements: Statement[] = [
      // The lead's cap is read by the guard itself, so uploads to two requests at once cannot pass it together.
      requestUploadedUpdate(db, request.id, current.fileCount, docs.length, token, at, clientUploadsLeave(lead.id, docs.length, CLIENT_DOCUMENTS_PER_LEAD_MAX)),
      ...stored.map((d) => documentInsertWhere(db, d, changed)),
      eventInsertWhere(db, lenderEvent(deal, "request.fulfilled", requestFulfilledDetail(current, [...prior, ...stored], at)), changed, at),
      ...stored.map((d) => uploadLanded(db, d.storageKey)),
    ];
    const guardChanges = await runGuardedBatch(db, statements, prelude);
    if (guardChanges === 1) return stored;
  }
  await discard();
  throw new Refusal("invalid_transition", "The request changed while uploading; please try again.", { field: "file" });
}

export async function messagesPage(deps: Deps, lead: Lead, ref: string) {
  const { db } = deps;
  const deal = await hubDeal(deps, lead, ref);
  return { deal, messages: await messagesOfDeal(db, deal.deal.ref) };
}

/** The business replies to the lender: the message and `message.created` in one batch. */
export async function replyToLender(deps: Deps, lead: Lead, ref: string, form: { subject?: string; body?: string }) {
  const { deal } = await hubDeal(deps, lead, ref);
  return replyOnDeal(deps, lead, deal, form);
}

/** The reply on a deal already resolved as the lead's; `prelude` as in `uploadToRequestOfDeal`. */
export async function replyOnDeal(deps: Deps, lead: Lead, deal: Deal, form: { subject?: string; body?: string }, prelude: readonly Statement[] = []) {
  const { db } = deps;
  const body = (form.body ?? "").trim();
  const subject = (form.subject ?? "").trim().replace(/\s+/g, " ");
  // Both fields are checked, so the page shows each problem at once. The one text rule of every
  // free-text field (src/lib/unicode.ts): the reply reaches the lender as it was typed.
  // A forbidden character is "missing" only for its code: 400 invalid_request, as the API's text rule answers it.
  const problems: FieldProblem[] = [];
  if (!body) problems.push({ field: "body", message: "Message is required: write something to send.", problem: "missing" });
  else if (body.length > MESSAGE_BODY_MAX) problems.push({ field: "body", message: `Message must be at most ${MESSAGE_BODY_MAX} characters.`, problem: "invalid" });
  else if (hasForbiddenTextCharacter(body, { lines: true })) problems.push({ field: "body", message: `Message ${FORBIDDEN_LINES_MESSAGE}`, problem: "missing" });
  if (subject.length > MESSAGE_SUBJECT_MAX) problems.push({ field: "subject", message: `Subject must be at most ${MESSAGE_SUBJECT_MAX} characters.`, problem: "invalid" });
  else if (hasForbiddenTextCharacter(subject)) problems.push({ field: "subject", message: `Subject ${FORBIDDEN_TEXT_MESSAGE}`, problem: "missing" });
  if (problems.length > 0) throw formRefused(failureOf(problems));
  const message: DealMessage = {
    id: newId("msg"),
    direction: "borrower_to_lender",
    body,
    subject: subject || null,
    fromEmail: lead.contact?.email ?? null,
    createdAt: isoNow(deps),
  };
  const detail = { message: { id: message.id, direction: message.direction, from_email: message.fromEmail, subject: message.subject, body, created_at: message.createdAt } };
  await runBatch(db, [messageInsert(db, deal.ref, message), eventInsert(db, lenderEvent(deal, "message.created", detail), message.createdAt)], prelude);
  return message;
}

export async function completionPage(deps: Deps, links: Links, lead: Lead, ref: string) {
  const { db } = deps;
  const deal = await hubDeal(deps, lead, ref);
  const key = deal.deal.agreementUploadedAt ? await agreementKeyOf(db, deal.deal.ref) : null;
  return {
    deal,
    completion: completionView(deal.deal),
    scheme: accountSchemeOf(deal.deal.subject.country),
    agreementUrl: key ? await links.file(key) : null,
  };
}

const notAccepted = () => new Refusal("invalid_transition", "This deal's offer has not been accepted, so it takes no completion steps.");

/** Account details go in once, on the accepted deal: the masked summary for every view, the account in full sealed for the lender's admin. */
export async function submitAccount(deps: Deps, lead: Lead, ref: string, form: Record<string, string | undefined>) {
  const { deal } = await hubDeal(deps, lead, ref);
  return submitAccountOnDeal(deps, lead, deal, form);
}

/** The account details on a deal already resolved as the lead's; `prelude` as in `uploadToRequestOfDeal`. */
export async function submitAccountOnDeal(deps: Deps, lead: Lead, deal: Deal, form: Record<string, string | undefined>, prelude: readonly Statement[] = []) {
  const { db } = deps;
  if (deal.status !== "offer_accepted") throw notAccepted();
  if (deal.accountSubmittedAt) throw new Refusal("invalid_transition", "Account details were already submitted for this deal.", { field: "account_holder_name" });
  const check = checkAccountDetails(accountSchemeOf(deal.subject.country), form);
  if (!check.ok) throw formRefused(check);
  const at = isoNow(deps);
  const token = randomToken(24);
  const after: Deal = { ...deal, accountSubmittedAt: at, accountSummary: check.summary, updatedAt: at };
  const sealed = await sealPayoutAccount(deps, check.full);
  const guardChanges = await runGuardedBatch(db, [
    accountSubmittedUpdate(db, lead.id, deal.ref, check.summary, sealed, token, at),
    eventInsertWhere(db, lenderEvent(deal, "deal.account_submitted", { completion: completionView(after) }), dealChanged(deal.ref, token), at),
  ], prelude);
  if (guardChanges !== 1) throw new Refusal("invalid_transition", "Account details were already submitted for this deal.", { field: "account_holder_name" });
  return completionView(after);
}

/** Signing: after the account details and the agreement upload, once, bound to the agreement file's etag. */
export async function signAgreement(deps: Deps, lead: Lead, ref: string, form: { full_name?: string; consent?: string }) {
  const { deal } = await hubDeal(deps, lead, ref);
  return signAgreementOnDeal(deps, lead, deal, form);
}

/** The signature on a deal already resolved as the lead's; `prelude` as in `uploadToRequestOfDeal`. */
export async function signAgreementOnDeal(deps: Deps, lead: Lead, deal: Deal, form: { full_name?: string; consent?: string }, prelude: readonly Statement[] = []) {
  const { db } = deps;
  if (deal.status !== "offer_accepted") throw notAccepted();
  if (deal.signedAt) throw new Refusal("invalid_transition", "The agreement is already signed.", { field: "full_name" });
  if (!deal.accountSubmittedAt) throw new Refusal("invalid_transition", "Submit your account details before signing.", { field: "full_name" });
  const key = deal.agreementUploadedAt ? await agreementKeyOf(db, deal.ref) : null;
  const agreement = key ? await deps.env.DOCUMENTS.head(key) : null;
  if (!deal.agreementUploadedAt || !agreement) throw new Refusal("invalid_transition", "There is no agreement to sign yet.", { field: "full_name" });
  const check = checkSignature(form, deal.subject.country);
  if (!check.ok) throw formRefused(check);
  const at = isoNow(deps);
  const token = randomToken(24);
  const verification = await signatureVerification(check.name, agreement.etag);
  const after: Deal = { ...deal, signedAt: at, signatureVerification: verification, updatedAt: at };
  const guardChanges = await runGuardedBatch(db, [
    agreementSignedUpdate(db, lead.id, deal.ref, deal.agreementUploadedAt, verification, token, at),
    eventInsertWhere(db, lenderEvent(deal, "deal.agreement_signed", { completion: completionView(after) }), dealChanged(deal.ref, token), at),
  ], prelude);
  if (guardChanges !== 1) throw new Refusal("invalid_transition", "The agreement is already signed, or it was replaced while you signed: open the page again.", { field: "full_name" });
  return completionView(after);
}
