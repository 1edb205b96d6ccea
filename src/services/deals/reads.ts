/** Reading a lender's deals: one deal (scoped to the caller), its full view, its completion, and pages of deals. */
import type { Deps } from "../deps";
import { findDeal, listDeals } from "../../db/deals/deals";
import type { Scope } from "../../domain/identity/caller";
import { normaliseDealReference } from "../../domain/deals/reference";
import type { Deal } from "../../domain/deals/types";
import { completionView, dealView } from "../../domain/deals/view";
import { decodeCursor, encodeCursor, positionOf, type KeysetPosition } from "../../lib/cursor";
import { Refusal } from "../../lib/refusal";
import { signingSecretOf } from "../../lib/signing-secret";
import { findDealWithRelations } from "../../db/deals/with-relations";
import { signedFiles } from "./files";
import { registerViewFrom } from "../registers/holdings";
import type { ViewContext } from "../views/view-context";
export const notFound = () => new Refusal("not_found", "No deal with that reference is routed to this account in this environment.");

export async function requireDeal(deps: Deps, scope: Scope, ref: string) {
  const { db } = deps;
  const deal = await findDeal(db, scope, normaliseDealReference(ref));
  if (!deal) throw notFound();
  return deal;
}

/** The full deal view; `full` webhook payloads call this too. Null when not the lender's. One D1 round trip (db/deals/with-relations.ts). */
export async function loadDealView(ctx: ViewContext, scope: Scope, ref: string) {
  return (await loadDealWithSources(ctx, scope, ref))?.view ?? null;
}

/** The full view and what it was made from (the deal row, its stored documents), for a page that shows more than the API's view. */
export async function loadDealWithSources(ctx: ViewContext, scope: Scope, ref: string) {
  const found = await findDealWithRelations(ctx.db, scope, normaliseDealReference(ref));
  if (!found) return null;
  const disclosures = found.disclosures.map((d) => ({
    offer_id: d.offerId,
    what: d.what,
    channel: d.channel,
    disclosure_version: d.disclosureVersion,
    text: d.text,
    amount: d.amount,
    currency: d.currency,
    shown_at: d.shownAt,
  }));
  return { deal: found.deal, documents: found.documents, view: dealView(found.deal, found.offers, await signedFiles(ctx, found.documents), registerViewFrom(found.registerAnswers, ctx.clock()), disclosures) };
}

const cursorScope = (scope: Scope) => `deals:${scope.organisationId}:${scope.environment}`;
const invalidCursor = () =>
  new Refusal("invalid_request", "query.cursor is not a cursor this API issued; pass `next_cursor` from the previous page unchanged.", { field: "query.cursor" });

/** `reasons`: only deals declined with at least one of these decline-reason codes. */
export async function pageOfDeals(deps: Deps, scope: Scope, status: Deal["lenderStatus"] | undefined, cursor: string | undefined, limit: number, reasons: readonly string[] = []) {
  const { db } = deps;
  const secret = signingSecretOf(deps.env);
  let after: KeysetPosition | null = null;
  if (cursor !== undefined) {
    // The filter is part of the signed position, so a cursor is only read back with the filter it was issued for.
    const p = (await decodeCursor(cursor, cursorScope(scope), secret)) as { c?: unknown; n?: unknown; s?: unknown; r?: unknown } | null;
    after = positionOf(p);
    if (!after || (p?.s ?? null) !== (status ?? null) || (p?.r ?? "") !== reasons.join(",")) throw invalidCursor();
  }
  const page = await listDeals(db, scope, status, after, limit, reasons);
  const last = page.last;
  const next = page.more && last ? await encodeCursor({ c: last.createdAt, n: last.seq, s: status ?? null, ...(reasons.length > 0 ? { r: reasons.join(",") } : {}) }, cursorScope(scope), secret) : null;
  return { deals: page.deals, nextCursor: next };
}

export async function dealCompletion(deps: Deps, scope: Scope, ref: string) {
  const { db } = deps;
  return completionView(await requireDeal(deps, scope, ref));
}
