/**
 * The sandbox life cycle of a lender's test deal (POST /v1/test/deals/{ref}/simulate):
 * the business behind the deal acts, through the very functions the client hub
 * runs for a real business (and the partner's own acceptance for
 * `offer.accepted`), so each action is decided, written and announced exactly
 * as it would be: one batch per change with its lender event, which the
 * webhooks then deliver. The business is a lead of the lender organisation
 * made for the deal on first use (src/db/deals/test-deal-leads.ts), never listed as a lead.
 */
import type { Deps } from "../deps";
import { runGuardedBatch } from "../../db/batch";
import { requestsOfLead } from "../../db/documents/requests";
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
import { nowIso } from "../../lib/ids";
import { replyToLender, signAgreement, submitAccount, uploadToRequest } from "../hub/client-hub";
import { loadDealView } from "../deals/reads";
import { acceptOfferOfLead } from "../leads/offers";
import type { ViewContext } from "../views/view-context";

const noTestDeal = () => new Refusal("not_found", "No test deal with that reference in this account and environment.");

/** A fresh lead reference can collide with a taken one (unique per environment); a few draws settle it. */
const REFERENCE_ATTEMPTS = 3;

/** The business behind the test deal, made (once, whoever races) on first use. */
async function sandboxBusinessOf(deps: Deps, scope: Scope, deal: Deal): Promise<Lead> {
  const { db } = deps;
  for (let attempt = 0; attempt < REFERENCE_ATTEMPTS; attempt++) {
    const existing = await findSandboxBusiness(db, scope, deal.ref);
    if (existing) return existing;
    const at = nowIso();
    const lead = sandboxBusinessLead(deal, crypto.randomUUID(), newLeadReference(), at);
    try {
      await runGuardedBatch(db, sandboxBusinessStatements(db, scope, deal.ref, lead, randomToken(24), at));
    } catch (error) {
      if (!isReferenceCollision(error)) throw error;
    }
  }
  // Deleted meanwhile, or the references kept colliding: read once more, else the deal is gone.
  const business = await findSandboxBusiness(db, scope, deal.ref);
  if (!business) throw noTestDeal();
  return business;
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

async function acceptCurrentOffer(deps: Deps, lead: Lead, deal: Deal) {
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
  await acceptOfferOfLead(deps, lead, newest.id);
}

async function fulfilOldestRequest(deps: Deps, bucket: R2Bucket, lead: Lead, deal: Deal) {
  const { db } = deps;
  const request = requestToAnswer((await requestsOfLead(db, lead.id)).filter((r) => r.dealRef === deal.ref));
  if (!request) {
    throw new Refusal("no_open_request", "This test deal has no open document request to answer: request a document first (POST /v1/deals/{ref}/requests).", { field: "event" });
  }
  const upload = sandboxUpload(request.documentType);
  await asTheBusiness(uploadToRequest(deps, bucket, lead, request.id, [new File([upload.bytes], upload.name, { type: upload.type })]));
}

export async function simulateTestDealEvent(ctx: ViewContext, bucket: R2Bucket, scope: Scope, ref: string, event: TestDealSimulatedEvent) {
  const db = ctx.db;
  const deal = await findTestDeal(db, scope, normaliseDealReference(ref));
  if (!deal) throw noTestDeal();
  const lead = await sandboxBusinessOf(ctx, scope, deal);
  switch (event) {
    case "offer.accepted":
      await acceptCurrentOffer(ctx, lead, deal);
      break;
    case "message.created":
      await asTheBusiness(replyToLender(ctx, lead, deal.ref, SANDBOX_REPLY));
      break;
    case "request.fulfilled":
      await fulfilOldestRequest(ctx, bucket, lead, deal);
      break;
    case "deal.account_submitted":
      await asTheBusiness(submitAccount(ctx, lead, deal.ref, sandboxAccountForm(deal)));
      break;
    case "deal.agreement_signed":
      await asTheBusiness(signAgreement(ctx, bucket, lead, deal.ref, sandboxSignatureForm(deal)));
      break;
  }
  const view = await loadDealView(ctx, scope, deal.ref);
  if (!view) throw noTestDeal();
  return view;
}
