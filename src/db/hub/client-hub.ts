/**
 * What the client hub reads and writes. The hub link names a lead and is its
 * own credential, so reads here are by lead (no organisation scope): every
 * deal and request lookup is tied to that lead in the query itself, so one
 * lead's link never reaches another lead's records. Writes are statements for
 * the callers' batches; each change writes a fresh `last_change` token and the
 * statements after it are guarded on that token.
 */
import { and, asc, desc, eq, inArray, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Deal } from "../../domain/deals/types";
import type { StoredDocument } from "../../domain/documents/types";
import { OPEN_REQUEST_STATUSES, type RequestStatus } from "../../domain/documents/types";
import type { Database } from "../client";
import { toDeal } from "../deals/deals";
import { insertWhere } from "../guarded";
import { deals, offers } from "../schema/deals";
import { documentRequests, documents } from "../schema/documents";
import { leads } from "../schema/leads";
import { qualified } from "../documents/parsed-statements";
import { writeOrder } from "../write-order";

/**
 * The lead's deals a business may act on (not deleted), oldest first: routed deals, and a test
 * deal only for the sandbox business standing behind it (POST /v1/test/deals/{ref}/simulate).
 */
const dealOfLead = (leadId: string) =>
  and(
    eq(deals.leadId, leadId),
    or(eq(deals.test, false), sql`exists (select 1 from ${leads} where ${qualified("leads", leads.id)} = ${leadId} and ${qualified("leads", leads.testDealRef)} is not null)`),
    isNull(deals.deletedAt),
  );

export async function dealsOfLead(db: Database, leadId: string): Promise<Deal[]> {
  return (await db.select().from(deals).where(dealOfLead(leadId)).orderBy(asc(deals.createdAt), asc(writeOrder(deals))).all()).map(toDeal);
}

export async function findDealOfLead(db: Database, leadId: string, ref: string): Promise<Deal | null> {
  const row = await db.select().from(deals).where(and(dealOfLead(leadId), eq(deals.ref, ref))).get();
  return row ? toDeal(row) : null;
}

export async function agreementKeyOf(db: Database, ref: string) {
  return (await db.select({ key: deals.agreementKey }).from(deals).where(eq(deals.ref, ref)).get())?.key ?? null;
}

/** Each deal's current offer labels (accepted first, then newest): the structural name a business sees, never the lender's. */
export async function offerLabelsOfDeals(db: Database, refs: string[]) {
  if (refs.length === 0) return new Map<string, string>();
  const rows = await db
    .select({ dealRef: offers.dealRef, label: offers.label, state: offers.state })
    .from(offers)
    .where(and(inArray(offers.dealRef, refs), eq(offers.superseded, false)))
    .orderBy(desc(offers.createdAt), desc(writeOrder(offers)))
    .all();
  const labels = new Map<string, string>();
  for (const r of [...rows.filter((r) => r.state === "accepted"), ...rows]) if (r.dealRef && !labels.has(r.dealRef)) labels.set(r.dealRef, r.label);
  return labels;
}

/**
 * The client's upload against an open request, decided against the file
 * count it was built on: a concurrent upload that landed first makes this one
 * change nothing, and the caller reads again and retries, so the count and the
 * file list in `request.fulfilled` are always the request's real ones.
 */
/** The account details go in once, on the deal whose offer was accepted. */
export const accountSubmittedUpdate = (db: Database, leadId: string, ref: string, summary: string, sealed: string, token: string, at: string) =>
  db
    .update(deals)
    .set({ accountSubmittedAt: at, accountSummary: summary, accountSealed: sealed, lastChange: token, updatedAt: at })
    .where(and(dealOfLead(leadId), eq(deals.ref, ref), eq(deals.status, "offer_accepted"), isNull(deals.accountSubmittedAt)));

/** Signed once, after the account details and against the agreement the signature was computed over. */
export const agreementSignedUpdate = (db: Database, leadId: string, ref: string, agreementUploadedAt: string, verification: string, token: string, at: string) =>
  db
    .update(deals)
    .set({ signedAt: at, signatureVerification: verification, lastChange: token, updatedAt: at })
    .where(
      and(
        dealOfLead(leadId),
        eq(deals.ref, ref),
        eq(deals.status, "offer_accepted"),
        isNotNull(deals.accountSubmittedAt),
        eq(deals.agreementUploadedAt, agreementUploadedAt),
        isNull(deals.signedAt),
      ),
    );

