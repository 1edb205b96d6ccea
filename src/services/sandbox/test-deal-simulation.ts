/**
 * The sandbox life cycle of a lender's test deal (POST /v1/test/deals/{ref}/simulate):
 * the business behind the deal acts, through the very functions the client hub
 * runs for a real business (and the partner's own acceptance for
 * `offer.accepted`), so each action is decided, written and announced exactly
 * as it would be: one batch per change with its lender event, which the
 * webhooks then deliver. The business is a lead of the lender organisation
 * (src/db/deals/test-deal-leads.ts), never listed as a lead, made by the deal's
 * first simulation: decided in the isolate (ids, reference, rows) and written
 * at the head of that action's own batch, so the business, the action, its
 * events and the request's Idempotency-Key commit are one D1 transaction. A
 * refused or failed first action leaves the deal without a business.
 */
import { isoNow, type Deps } from "../deps";
import type { Statement } from "../../db/batch";
import { requestsOfDeal } from "../../db/documents/requests";
import { documentsOfRequests } from "../../db/documents/documents";
import { CLIENT_REMOVABLE_REQUEST_STATUSES } from "../../domain/documents/removal";
import { removeClientDocumentOfDeal } from "../documents/lead-documents";
import { isReferenceCollision } from "../../db/leads/leads";
import { offersOfDeal } from "../../db/deals/offers";
import { findSandboxBusiness, findTestDeal, sandboxBusinessStatements } from "../../db/deals/test-deal-leads";
import { normaliseDealReference } from "../../domain/deals/reference";
import {
  SANDBOX_REPLY,
  sandboxAccountForm,
  sandboxBusinessLead,
  sandboxSignatureForm,
  sandboxUpload,
  requestToAnswer,
  type TestDealSimulatedEvent,
} from "../../domain/deals/sandbox-business";
import type { Deal } from "../../domain/deals/types";
import type { Scope } from "../../domain/identity/caller";
import type { Lead } from "../../domain/leads/types";
import { newLeadReference } from "../../domain/leads/reference";
import { randomToken } from "../../lib/crypto";
import { Refusal } from "../../lib/refusal";
import { replyOnDeal, signAgreementOnDeal, submitAccountOnDeal, uploadToRequestOfDeal } from "../hub/client-hub";
import { loadDealView } from "../deals/reads";
import { acceptFoundOffer } from "../leads/offers";
import type { ViewContext } from "../views/view-context";

const noTestDeal = () => new Refusal("not_found", "No test deal with that reference in this account and environment.");

/**
 * A first action whose batch wrote nothing because its business could not be written (a lead
 * reference drawn twice, a racing first simulation that gave the deal its business, the deal
 * deleted) is decided again from a fresh read; a few rounds settle it.
 */
const FIRST_USE_ATTEMPTS = 3;

/** The business the action is taken by, and what its batch writes first: nothing, or the business itself on first use. */
interface Business {
  lead: Lead;
  prelude: readonly Statement[];
}

/** The deal's business, or (none yet) a new one decided here, to be written by the first action's own batch. */
async function businessOf(deps: Deps, scope: Scope, deal: Deal): Promise<Business> {
  const { db } = deps;
  const existing = await findSandboxBusiness(db, scope, deal.ref);
  if (existing) return { lead: existing, prelude: [] };
  const at = isoNow(deps);
  const lead = sandboxBusinessLead(deal, crypto.randomUUID(), newLeadReference(), at);
  return { lead, prelude: sandboxBusinessStatements(db, scope, deal.ref, lead, randomToken(24), at) };
}

/**
 * After a first action failed: true when its batch wrote nothing because the business could not be
 * written (see sandboxBusinessStatements), so acting again is safe. A deal that now has this very
 * business means the batch committed and something after it failed: never again.
 */
async function businessLost(deps: Deps, scope: Scope, deal: Deal, business: Business, error: unknown) {
  if (isReferenceCollision(error)) return true;
  const now = await findTestDeal(deps.db, scope, deal.ref);
  return !now || (now.leadId !== null && now.leadId !== business.lead.id);
}

/**
 * The hub refused the business: the same reason, told to the lender as the
 * `event` it asked for that the business cannot take in the deal's state
 * (e.g. account details before an offer is accepted). The hub names its own
 * form's field; the lender's request has one field, `event`.
 */
const refusedByHub = (refusal: Refusal) =>
  refusal.code === "not_found" ? noTestDeal() : new Refusal("invalid_transition", `The business cannot do this now: ${refusal.detail}`, { field: "event" });

/** One step the business takes through the hub; the hub's refusal is told as `refusedByHub`. */
async function asTheBusiness(step: Promise<unknown>) {
  try {
    await step;
  } catch (error) {
    throw error instanceof Refusal ? refusedByHub(error) : error;
  }
}

async function acceptCurrentOffer(deps: Deps, { lead, prelude }: Business, deal: Deal) {
  const { db } = deps;
  const current = (await offersOfDeal(db, deal.ref)).filter((o) => !o.superseded && o.state === "presented");
  const newest = current.at(-1);
  if (!newest) {
    const accepted = deal.status === "offer_accepted";
    throw new Refusal(
      "offer_not_acceptable",
      accepted ? "An offer on this test deal is already accepted." : "This test deal has no current offer to accept: make one first (POST /v1/deals/{ref}/offers).",
      { field: "event" },
    );
  }
  await acceptFoundOffer(deps, lead, newest, prelude);
}

async function fulfilOldestRequest(deps: Deps, { lead, prelude }: Business, deal: Deal) {
  const { db } = deps;
  const request = requestToAnswer(await requestsOfDeal(db, deal.ref));
  if (!request) {
    throw new Refusal("no_open_request", "This test deal has no open document request to answer: request a document first (POST /v1/deals/{ref}/requests).", { field: "event" });
  }
  const upload = sandboxUpload(request.documentType);
  await asTheBusiness(uploadToRequestOfDeal(deps, lead, deal, request, [new File([upload.bytes], upload.name, { type: upload.type })], prelude));
}

async function removeNewestFile(deps: Deps, { lead, prelude }: Business, deal: Deal) {
  const { db } = deps;
  const requests = (await requestsOfDeal(db, deal.ref)).filter((r) => CLIENT_REMOVABLE_REQUEST_STATUSES.includes(r.status));
  // A deal without its business yet has no file of the business's.
  const newest = prelude.length > 0 ? undefined : (await documentsOfRequests(db, requests.map((r) => r.id))).at(-1);
  if (!newest) {
    throw new Refusal("invalid_transition", "The business has sent no file on this test deal that it could take back: have it upload one first.", { field: "event" });
  }
  await asTheBusiness(removeClientDocumentOfDeal(deps, lead, deal.ref, newest.requestId!, newest.id));
}

/** The business takes `event` on the deal: one batch, opened by the business itself when this is its first action. */
async function act(deps: Deps, business: Business, deal: Deal, event: TestDealSimulatedEvent) {
  const { lead, prelude } = business;
  switch (event) {
    case "offer.accepted":
      return acceptCurrentOffer(deps, business, deal);
    case "message.created":
      return asTheBusiness(replyOnDeal(deps, lead, deal, SANDBOX_REPLY, prelude));
    case "request.fulfilled":
      return fulfilOldestRequest(deps, business, deal);
    case "document.removed":
      return removeNewestFile(deps, business, deal);
    case "deal.account_submitted":
      return asTheBusiness(submitAccountOnDeal(deps, lead, deal, sandboxAccountForm(deal), prelude));
    case "deal.agreement_signed":
      return asTheBusiness(signAgreementOnDeal(deps, lead, deal, sandboxSignatureForm(deal), prelude));
  }
}

export async function simulateTestDealEvent(ctx: ViewContext, scope: Scope, ref: string, event: TestDealSimulatedEvent) {
  const db = ctx.db;
  const wanted = normaliseDealReference(ref);
  for (let attempt = 1; ; attempt++) {
    const deal = await findTestDeal(db, scope, wanted);
    if (!deal) throw noTestDeal();
    const business = await businessOf(ctx, scope, deal);
    try {
      await act(ctx, business, deal, event);
      break;
    } catch (error) {
      const firstUse = business.prelude.length > 0;
      if (!firstUse || error instanceof Refusal || attempt >= FIRST_USE_ATTEMPTS || !(await businessLost(ctx, scope, deal, business, error))) throw error;
    }
  }
  const view = await loadDealView(ctx, scope, wanted);
  if (!view) throw noTestDeal();
  return view;
}
