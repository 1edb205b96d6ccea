/**
 * The operator's commission terms (docs/commission.md, "Terms"): per lender product, for one partner
 * or as the product's default, in one currency. A PUT adds a change that takes effect at once; the
 * earlier rows stay, so an accrual can always be traced to the terms it was priced by.
 */
import { isoNow, type Deps } from "../deps";
import { listLenderProducts } from "../../db/panel/panel";
import { findOrganisation } from "../../db/identity/organisations";
import { termsHistory, termsInsert } from "../../db/commission/terms";
import { DEFAULT_PARTNER, termsInForce, termsProblem, type CommissionTerms, type TermsInput } from "../../domain/commission/terms";
import type { CurrencyCode } from "../../domain/commission/money";
import { newId } from "../../lib/ids";
import { Refusal } from "../../lib/refusal";

interface TermsChange extends TermsInput {
  partnerOrganisationId: string | null;
  currency: CurrencyCode;
}

const noProduct = () => new Refusal("not_found", "No panel product with that id for that lender organisation.");

/** The terms as the operator reads them; `in_force` marks the row in force now for its partner and currency. */
const termsView = (t: CommissionTerms, inForce: boolean) => ({
  id: t.id,
  lender_organisation_id: t.lenderOrganisationId,
  product_id: t.productId,
  partner_organisation_id: t.partnerOrganisationId === DEFAULT_PARTNER ? null : t.partnerOrganisationId,
  currency: t.currency,
  basis: t.basis,
  rate_bps: t.rateBps,
  flat_amount: t.flatAmount,
  min_amount: t.minAmount,
  max_amount: t.maxAmount,
  clawback_days: t.clawbackDays,
  effective_at: t.effectiveAt,
  in_force: inForce,
});

async function requireProduct(deps: Deps, lenderOrganisationId: string, productId: string) {
  const products = await listLenderProducts(deps.db, lenderOrganisationId);
  const product = products.find((p) => p.id === productId);
  if (!product) throw noProduct();
  return product;
}

export async function putCommissionTerms(deps: Deps, lenderOrganisationId: string, productId: string, change: TermsChange) {
  await requireProduct(deps, lenderOrganisationId, productId);
  const problem = termsProblem(change);
  if (problem) throw new Refusal("invalid_request", problem.detail, { field: problem.field });
  if (change.partnerOrganisationId !== null) {
    const partner = await findOrganisation(deps.db, change.partnerOrganisationId);
    if (partner?.kind !== "partner") throw new Refusal("invalid_request", "partner_organisation_id names no partner organisation.", { field: "partner_organisation_id" });
  }
  const terms: CommissionTerms = {
    id: newId("cmt"),
    lenderOrganisationId,
    productId,
    partnerOrganisationId: change.partnerOrganisationId ?? DEFAULT_PARTNER,
    currency: change.currency,
    basis: change.basis,
    rateBps: change.rateBps,
    flatAmount: change.flatAmount,
    minAmount: change.minAmount,
    maxAmount: change.maxAmount,
    clawbackDays: change.clawbackDays,
    effectiveAt: isoNow(deps),
  };
  await deps.db.batch([termsInsert(deps.db, terms)]);
  return termsView(terms, true);
}

/** Every change of the product's terms, newest first, each marked whether it is in force now. */
export async function commissionTermsOf(deps: Deps, lenderOrganisationId: string, productId: string) {
  await requireProduct(deps, lenderOrganisationId, productId);
  const history = await termsHistory(deps.db, lenderOrganisationId, productId);
  const now = isoNow(deps);
  const inForce = new Set<string>();
  for (const t of history) {
    const sameKey = [...history].reverse().filter((h) => h.currency === t.currency && h.partnerOrganisationId === t.partnerOrganisationId);
    const current = termsInForce(sameKey, t.partnerOrganisationId, now);
    if (current) inForce.add(current.id);
  }
  return history.map((t) => termsView(t, inForce.has(t.id)));
}
