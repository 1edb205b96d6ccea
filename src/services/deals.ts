/**
 * The lender's side of a deal: read, report status, make offers, message,
 * upload the agreement, test deals. Each change and the events it emits go in
 * one batch; races are decided by the conditional update at its head.
 */
import type { Database } from "../db/client";
import {
  closePresentedOffers,
  countTestDeals,
  dealChanged,
  dealFundable,
  dealStatusUpdate,
  deleteTestDeal,
  noLenderLeftToFund,
  findDeal,
  findRouting,
  leadReference,
  listDeals,
  messageInsert,
  messagesOfDeal,
  noCurrentFirmOffer,
  offerDealUpdate,
  offerInsertWhere,
  offersOfDeal,
  offersOfDealWhere,
  agreementRecord,
  routingOutcomeUpdate,
  routingPresentedUpdate,
  supersedeCurrentOffers,
  TEST_DEAL_CAP,
  testDealInsert,
  type Statement,
} from "../db/deals";
import { notificationInsert } from "../db/client-notifications";
import type { NewEvent } from "../db/events";
import { eventInsertWhere } from "../db/guarded";
import { allOf, leadIn, moveLead, routingChanged } from "../db/lead-progress";
import type { Scope } from "../domain/identity/caller";
import { newDealReference, normaliseDealReference } from "../domain/deals/reference";
import { LEAD_STATES_OPEN_FOR_OFFERS, LEAD_STATES_OPEN_FOR_OUTCOME, canMove, statusesAllowing, type ReportableStatus } from "../domain/deals/status";
import type { Deal, DealMessage, DealSubject, OfferMaturity } from "../domain/deals/types";
import { completionView, dealOfferView, dealView } from "../domain/deals/view";
import { marketFor } from "../domain/reference/markets";
import { PRODUCT_FAMILIES } from "../domain/reference/values";
import { randomToken } from "../lib/crypto";
import { decodeCursor, encodeCursor } from "../lib/cursor";
import { ApiError } from "../lib/errors";
import { newId, nowIso } from "../lib/ids";
import { findDealWithRelations } from "../db/deal-with-relations";
import { signedFiles } from "./deal-files";
import type { ViewContext } from "./view-context";

const notFound = () => new ApiError("not_found", "No deal with that reference is routed to this account in this environment.");

export async function requireDeal(db: Database, scope: Scope, ref: string) {
  const deal = await findDeal(db, scope, normaliseDealReference(ref));
  if (!deal) throw notFound();
  return deal;
}

/** The full deal view; `full` webhook payloads call this too. Null when not the lender's. */
/** The deal, its offers and its files in one D1 round trip (db/deal-with-relations.ts). */
export async function loadDealView(ctx: ViewContext, scope: Scope, ref: string) {
  const found = await findDealWithRelations(ctx.db, scope, normaliseDealReference(ref));
  if (!found) return null;
  return dealView(found.deal, found.offers, await signedFiles(ctx, found.documents));
}

const cursorScope = (scope: Scope) => `deals:${scope.organisationId}:${scope.environment}`;
const invalidCursor = () =>
  new ApiError("invalid_request", "query.cursor is not a cursor this API issued; pass `next_cursor` from the previous page unchanged.", { field: "query.cursor" });

export async function pageOfDeals(db: Database, scope: Scope, status: Deal["lenderStatus"] | undefined, cursor: string | undefined, limit: number, secret: string) {
  let after = null;
  if (cursor !== undefined) {
    // The filter is part of the signed position, so a cursor is only read back with the filter it was issued for.
    const p = (await decodeCursor(cursor, cursorScope(scope), secret)) as { c?: unknown; r?: unknown; s?: unknown } | null;
    if (!p || typeof p.c !== "string" || typeof p.r !== "string" || (p.s ?? null) !== (status ?? null)) throw invalidCursor();
    after = { createdAt: p.c, ref: p.r };
  }
  const page = await listDeals(db, scope, status, after, limit);
  const last = page.deals.at(-1);
  const next = page.more && last ? await encodeCursor({ c: last.createdAt, r: last.ref, s: status ?? null }, cursorScope(scope), secret) : null;
  return { deals: page.deals, nextCursor: next };
}

export const lenderEvent = (deal: Deal, event: string, detail: Record<string, unknown> = {}): NewEvent => ({
  organisationId: deal.lenderOrganisationId,
  environment: deal.environment,
  api: "lender",
  event,
  subjectType: "deal",
  subjectId: deal.ref,
  test: deal.test,
  detail,
});

/**
 * Partner events for a lead go to the partner that owns it; the routing record
 * names it. The detail carries the lead's reference and new state, like every
 * other lead event.
 */
const partnerEvent = (deal: Deal, partnerOrganisationId: string, reference: string | null, event: string, detail: Record<string, unknown> = {}): NewEvent => ({
  organisationId: partnerOrganisationId,
  environment: deal.environment,
  api: "partner",
  event,
  subjectType: "lead",
  subjectId: deal.leadId!,
  detail: { reference, state: event.replace(/^lead\./, ""), ...detail },
});

const invalidTransition = (deal: Deal, to: string) =>
  new ApiError("invalid_transition", `The deal's lender_status is ${deal.lenderStatus}; it cannot move to ${to}.`);

export interface StatusReport {
  status: ReportableStatus;
  reason?: string;
  funded_amount?: number;
}

export async function reportStatus(db: Database, scope: Scope, ref: string, report: StatusReport) {
  const deal = await requireDeal(db, scope, ref);
  if (!canMove(deal.lenderStatus, report.status)) throw invalidTransition(deal, report.status);
  if (report.status === "funded" && report.funded_amount === undefined) {
    throw new ApiError("invalid_request", "funded_amount is required when status is funded.", { field: "funded_amount" });
  }
  if (report.status !== "funded" && report.funded_amount !== undefined) {
    throw new ApiError("invalid_request", "funded_amount is only taken with status funded.", { field: "funded_amount" });
  }
  if (report.status === "funded" && deal.leadId && deal.status !== "offer_accepted" && (await findRouting(db, deal.leadId))?.acceptedOfferId) {
    throw new ApiError("invalid_transition", "The partner accepted another provider's offer on this lead; only that deal can be funded.");
  }
  const at = nowIso();
  const token = randomToken(24);
  const fundedAmount = report.status === "funded" ? report.funded_amount! : null;
  const reason = report.reason ?? null;
  const changed = dealChanged(deal.ref, token);
  const statements: Statement[] = [
    dealStatusUpdate(db, scope, deal.ref, {
      to: report.status,
      from: statusesAllowing(report.status),
      status: report.status === "funded" ? "funded" : report.status === "declined" ? "declined" : undefined,
      reason,
      fundedAmount,
      token,
      at,
      guard: report.status === "funded" ? dealFundable : undefined,
    }),
    eventInsertWhere(db, lenderEvent(deal, "deal.updated", { update: { status: report.status, reason, funded_amount: fundedAmount } }), changed, at),
  ];
  if (report.status === "declined") statements.push(closePresentedOffers(db, offersOfDealWhere(deal.ref), changed));
  const partner = deal.partnerOrganisationId;
  if (deal.leadId && partner && (report.status === "funded" || report.status === "declined")) {
    const leadId = deal.leadId;
    const outcome = report.status;
    const reference = await leadReference(db, leadId);
    const guard = outcome === "declined" ? allOf(changed, noLenderLeftToFund(leadId)) : changed;
    statements.push(
      routingOutcomeUpdate(db, leadId, outcome, fundedAmount, token, at, guard),
      moveLead(db, leadId, LEAD_STATES_OPEN_FOR_OUTCOME, outcome, at, routingChanged(leadId, token)),
      eventInsertWhere(
        db,
        partnerEvent(deal, partner, reference, `lead.${outcome}`, outcome === "funded" ? { funding_outcome: { funded_at: at, funded_amount: fundedAmount } } : {}),
        allOf(routingChanged(leadId, token), leadIn(leadId, outcome)),
        at,
      ),
    );
  }
  const [result] = await db.batch(statements as [Statement, ...Statement[]]);
  if ((result as D1Result).meta.changes !== 1) {
    const now = await requireDeal(db, scope, ref);
    throw invalidTransition(now, report.status);
  }
  return requireDeal(db, scope, ref);
}

export interface OfferTerms {
  maturity: OfferMaturity;
  amount: number;
  kind: string;
  annual_rate_pct?: number;
  factor_rate?: number;
  term_months?: number;
  fees?: number;
  total_repayment?: number;
  expires_at?: string;
  notes?: string;
}

const familyLabel = (family: string | null | undefined) => PRODUCT_FAMILIES.find((f) => f.value === family)?.label ?? null;

export async function makeOffer(db: Database, scope: Scope, ref: string, terms: OfferTerms) {
  const deal = await requireDeal(db, scope, ref);
  if (!canMove(deal.lenderStatus, "offer_made") || deal.status !== "submitted") {
    throw new ApiError("invalid_transition", `No offer can be made on a deal whose lender_status is ${deal.lenderStatus} and status ${deal.status}.`);
  }
  const existing = await offersOfDeal(db, deal.ref);
  if (terms.maturity === "indicative" && existing.some((o) => !o.superseded && o.state === "presented" && o.maturity === "firm")) {
    throw new ApiError("invalid_transition", "A firm offer is current; indicative terms cannot replace it. Send new firm terms instead.");
  }
  const at = nowIso();
  const token = randomToken(24);
  const changed = dealChanged(deal.ref, token);
  const market = marketFor(deal.subject.country);
  const offer = {
    id: newId("off"),
    environment: deal.environment,
    leadId: deal.leadId,
    dealRef: deal.ref,
    lenderOrganisationId: deal.lenderOrganisationId,
    // Structural: the product family's label, never the lender's name.
    label: familyLabel(terms.kind) ?? familyLabel(deal.subject.funding?.product_family) ?? "Funding offer",
    maturity: terms.maturity,
    kind: terms.kind,
    amount: terms.amount,
    currency: market.currency,
    annualRatePct: terms.annual_rate_pct ?? null,
    factorRate: terms.factor_rate ?? null,
    termMonths: terms.term_months ?? null,
    fees: terms.fees ?? null,
    totalRepayment: terms.total_repayment ?? null,
    expiresAt: terms.expires_at ? new Date(terms.expires_at).toISOString() : null,
    notes: terms.notes ?? null,
    state: "presented",
    superseded: false,
    simulated: false,
    createdAt: at,
  };
  const statements: Statement[] = [
    offerDealUpdate(db, scope, deal.ref, statusesAllowing("offer_made"), LEAD_STATES_OPEN_FOR_OFFERS, token, at, terms.maturity === "indicative" ? noCurrentFirmOffer(deal.ref) : undefined),
    supersedeCurrentOffers(db, deal.ref, terms.maturity, changed, at),
    offerInsertWhere(db, offer, changed),
    eventInsertWhere(db, lenderEvent(deal, "deal.updated", { update: { status: "offer_made", reason: null, funded_amount: null } }), changed, at),
  ];
  const partner = deal.partnerOrganisationId;
  if (deal.leadId && partner) {
    const leadId = deal.leadId;
    const reference = await leadReference(db, leadId);
    statements.push(
      routingPresentedUpdate(db, leadId, token, at, changed),
      moveLead(db, leadId, ["matched"], "offers_available", at, routingChanged(leadId, token)),
      eventInsertWhere(db, partnerEvent(deal, partner, reference, "lead.offers_available"), allOf(routingChanged(leadId, token), leadIn(leadId, "offers_available")), at),
    );
  }
  const [result] = await db.batch(statements as [Statement, ...Statement[]]);
  if ((result as D1Result).meta.changes !== 1) {
    throw new ApiError("invalid_transition", "The deal no longer takes these terms (its status changed, an offer on the lead was accepted, or firm terms became current).");
  }
  const made = (await offersOfDeal(db, deal.ref)).find((o) => o.id === offer.id)!;
  return dealOfferView(made);
}

export async function dealOffers(db: Database, scope: Scope, ref: string) {
  const deal = await requireDeal(db, scope, ref);
  return (await offersOfDeal(db, deal.ref)).map(dealOfferView);
}

export async function dealMessages(db: Database, scope: Scope, ref: string) {
  const deal = await requireDeal(db, scope, ref);
  return messagesOfDeal(db, deal.ref);
}

/**
 * A lender's message to the client; `message.created` fires for the client's
 * replies, not for this. The business is told in the same batch (a test deal
 * has no business behind it).
 */
export async function sendMessage(db: Database, scope: Scope, ref: string, body: string) {
  const deal = await requireDeal(db, scope, ref);
  const message: DealMessage = { id: newId("msg"), direction: "lender_to_borrower", body, createdAt: nowIso() };
  const statements: Statement[] = [messageInsert(db, deal.ref, message)];
  if (deal.leadId) {
    statements.push(
      notificationInsert(db, { leadId: deal.leadId, environment: deal.environment, kind: "message", dealRef: deal.ref, subject: `New message about ${deal.ref}`, deepLink: `/deals/${deal.ref}/messages` }, message.createdAt),
    );
  }
  await db.batch(statements as [Statement, ...Statement[]]);
  return message;
}

export async function dealCompletion(db: Database, scope: Scope, ref: string) {
  return completionView(await requireDeal(db, scope, ref));
}

/** Where a deal's agreement lives in the DOCUMENTS bucket. */
export const agreementKey = (deal: Deal) => `deals/${deal.environment}/${deal.ref}/agreement.pdf`;

export async function uploadAgreement(db: Database, bucket: R2Bucket, scope: Scope, ref: string, pdf: ArrayBuffer) {
  const deal = await requireDeal(db, scope, ref);
  const key = agreementKey(deal);
  await bucket.put(key, pdf, { httpMetadata: { contentType: "application/pdf" } });
  const at = nowIso();
  const statements: Statement[] = [agreementRecord(db, scope, deal.ref, key, at)];
  if (deal.leadId) {
    statements.push(
      notificationInsert(db, { leadId: deal.leadId, environment: deal.environment, kind: "agreement", dealRef: deal.ref, subject: `Your agreement for ${deal.ref} is ready to sign`, deepLink: `/deals/${deal.ref}/completion` }, at),
    );
  }
  const [result] = await db.batch(statements as [Statement, ...Statement[]]);
  if ((result as D1Result).meta.changes !== 1) throw notFound();
  return completionView(await requireDeal(db, scope, ref));
}

/** The business a test deal stands for, shaped by the optional body. */
export interface TestDealShape {
  country?: string;
  business?: DealSubject["business"];
  contact?: DealSubject["contact"];
  funding?: DealSubject["funding"];
  trading?: DealSubject["trading"];
}

const testSubject = (shape: TestDealShape): DealSubject => ({
  country: shape.country ?? "GB",
  channel: { name: "Test channel", domain: "test.example" },
  business: shape.business ?? { name: "Test Trading Ltd", company_number: "00000000", entity_type: "private_limited_company", industry: "retail" },
  contact: shape.contact ?? { first_name: "Test", last_name: "Applicant", email: "applicant@test.example", phone: null },
  funding: shape.funding ?? { amount: 50_000, purpose: "working_capital", product_family: "business_loan" },
  trading: shape.trading ?? { monthly_revenue: 40_000, tib_months: 36 },
  consent: { obtained: true, obtained_at: null, soft_credit_search: true },
  significantPersons: [],
});

export async function createTestDeal(ctx: ViewContext, scope: Scope, shape: TestDealShape) {
  const db = ctx.db;
  const at = nowIso();
  const token = randomToken(24);
  const ref = newDealReference();
  const newDeal = { ref, lenderOrganisationId: scope.organisationId, environment: scope.environment, leadId: null, partnerOrganisationId: null, test: true, productIds: [], subject: testSubject(shape), at, token };
  const event: NewEvent = { organisationId: scope.organisationId, environment: scope.environment, api: "lender", event: "deal.created", subjectType: "deal", subjectId: ref, test: true, detail: {} };
  const [result] = await db.batch([testDealInsert(db, newDeal), eventInsertWhere(db, event, dealChanged(ref, token), at)]);
  if ((result as D1Result).meta.changes !== 1) {
    throw new ApiError("cap_exceeded", `At most ${TEST_DEAL_CAP} test deals may exist at once; delete one (DELETE /v1/test/deals/{ref}) first.`, {
      extra: { limit: TEST_DEAL_CAP, current: await countTestDeals(db, scope) },
    });
  }
  return (await loadDealView(ctx, scope, ref))!;
}

export async function removeTestDeal(db: Database, scope: Scope, ref: string) {
  if (!(await deleteTestDeal(db, scope, normaliseDealReference(ref), nowIso()))) {
    throw new ApiError("not_found", "No test deal with that reference in this account and environment.");
  }
}

