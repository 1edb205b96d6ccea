/**
 * The one door between lead submission and the matcher: submit calls
 * `panelMatcher` for the match and `planRouting` for what the match writes.
 *
 * - Live: one deal per matched lender, each with a `deal.created` event for
 *   that lender, in the submit's own batch.
 * - Sandbox: no deal; simulated offers from the matched products' price
 *   ranges, presented at once (lead `offers_available`).
 * - No match: `out_of_scope`, the matcher's reasons kept on the routing record.
 */
import type { Deps } from "../deps";
import type { NewEvent } from "../../db/webhooks/events";
import { eventInsertWhere } from "../../db/guarded";
import { dealInsertForSubmission, offerInsertForSubmission, routingInsert, submissionWon, type NewOffer } from "../../db/leads/routing";
import { subjectOf } from "../../domain/leads/subject";
import { matcherFacts } from "../../domain/deals/facts";
import { newDealReference } from "../../domain/deals/reference";
import type { ResolvedFigures } from "../../domain/figures";
import type { Lead, LeadOption } from "../../domain/leads/types";
import { matchBusiness, type MatchedProduct } from "../../domain/panel/matcher";
import { heldRequirements, type Need, type RequirementField } from "../../domain/panel/requirements";
import type { StoredDocument } from "../../domain/documents/types";
import type { Market } from "../../domain/reference/markets";
import type { RegistryAnswer } from "../../domain/registers/types";
import type { LeadState } from "../../domain/reference/values";
import { simulateOffers } from "../../domain/panel/sandbox-offers";
import { newId } from "../../lib/ids";
import { currentPanel } from "../panel/panel-cache";
import type { Statement } from "../../db/batch";

export interface LeadFacts {
  market: Market;
  environment: "sandbox" | "live";
  figures: ResolvedFigures;
  industry: string | null;
  purpose: string | null;
  product_family: string | null;
  entity_type: string | null;
  /** The company register's stored answer at submit; null while none is stored. */
  registry: RegistryAnswer | null;
  /** What the application holds of what products may require (domain/panel/requirements.ts). */
  held: ReadonlySet<RequirementField>;
}

export interface MatchReason {
  code: string;
  detail: string;
}

export interface LeadMatch {
  matched_options: number;
  options: LeadOption[];
  reasons: MatchReason[];
  /** Internal: names the lenders; never shown to a partner. */
  matchedProducts: MatchedProduct[];
  /** What the application could add for more options (products left out by their requirements alone). */
  needs?: Need[];
}

export type LeadMatcher = (facts: LeadFacts) => Promise<LeadMatch> | LeadMatch;

/** The real matcher over the current panel: the same `matchBusiness` prequalification calls. */
export const panelMatcher =
  (deps: Deps, excludeLender: string | null = null): LeadMatcher =>
  async (facts) => {
    const panel = (await currentPanel(deps)).filter((p) => p.lenderOrganisationId !== excludeLender);
    const result = matchBusiness(matcherFacts(facts), panel);
    return {
      matched_options: result.matchedOptions,
      options: result.productFamilies,
      reasons: result.reasons,
      matchedProducts: result.matchedProducts,
      needs: result.needs,
    };
  };

/**
 * The matcher's facts for a lead, from the figures the lead shows and what the application holds
 * (its fields, persons and accepted parsed statements) of what a product may require.
 */
export function leadFacts(lead: Lead, market: Market, figures: ResolvedFigures, registry: RegistryAnswer | null = null, documents: readonly StoredDocument[] = []): LeadFacts {
  return {
    registry,
    held: heldRequirements({
      business: lead.business,
      contact: lead.contact,
      significantPersons: lead.significantPersons,
      statements: documents.filter((d) => d.state === "accepted").map((d) => d.statement),
    }),
    market,
    environment: lead.environment,
    figures,
    industry: lead.business?.industry ?? null,
    purpose: lead.funding?.purpose ?? null,
    product_family: lead.funding?.product_family ?? null,
    entity_type: lead.business?.entity_type ?? null,
  };
}

/** Sandbox offers as rows: `simulateOffers` terms, presented, indicative, `simulated`. */
export function simulatedOfferRows(leadId: string, products: readonly MatchedProduct[], amount: number | null, currency: string, at: string): NewOffer[] {
  const families = new Map(products.map((p) => [`${p.lenderOrganisationId}:${p.productId}`, p.productFamily]));
  return simulateOffers(leadId, products, amount, currency, new Date(at)).map((o) => ({
    id: newId("off"),
    environment: "sandbox",
    leadId,
    dealRef: null,
    lenderOrganisationId: o.lenderOrganisationId,
    label: o.label,
    maturity: "indicative",
    kind: families.get(`${o.lenderOrganisationId}:${o.productId}`)!,
    amount: o.amount,
    currency: o.currency,
    annualRatePct: o.annualRatePct,
    factorRate: o.factorRate,
    termMonths: o.termMonths,
    fees: o.fees,
    totalRepayment: o.totalRepayment,
    expiresAt: o.expiresAt,
    notes: null,
    state: "presented",
    superseded: false,
    simulated: true,
    createdAt: at,
  }));
}

/** Matched products grouped by lender, in match order. */
function byLender(products: readonly MatchedProduct[]) {
  const groups = new Map<string, MatchedProduct[]>();
  for (const p of products) groups.set(p.lenderOrganisationId, [...(groups.get(p.lenderOrganisationId) ?? []), p]);
  return groups;
}

export interface RoutingPlan {
  state: LeadState;
  /** Lead events, in order, each also a timeline entry. */
  leadEvents: string[];
  /** Rows besides the lead's own update, each guarded on the submission token. */
  statements: Statement[];
}

export function planRouting(deps: Deps, lead: Lead, match: LeadMatch, figures: ResolvedFigures, currency: string, token: string, at: string): RoutingPlan {
  const { db } = deps;
  const matched = match.matched_options > 0;
  const sandbox = lead.environment === "sandbox";
  const statements: Statement[] = [];
  // Sandbox leads get simulated offers at once; the lead is `offers_available` only if one was made.
  const simulated = matched && sandbox ? simulatedOfferRows(lead.id, match.matchedProducts, figures.amount, currency, at) : [];
  const presented = simulated.length > 0;
  statements.push(
    routingInsert(db, {
      leadId: lead.id,
      partnerOrganisationId: lead.organisationId,
      environment: lead.environment,
      reasons: match.reasons,
      offersPresentedAt: presented ? at : null,
      token,
      at,
    }),
  );

  if (matched && !sandbox) {
    for (const [lenderOrganisationId, products] of byLender(match.matchedProducts)) {
      const ref = newDealReference();
      statements.push(
        dealInsertForSubmission(
          db,
          { ref, lenderOrganisationId, environment: lead.environment, leadId: lead.id, partnerOrganisationId: lead.organisationId, test: false, productIds: products.map((p) => p.productId), productFamily: products[0].productFamily, subject: subjectOf(lead), at, token },
          lead.id,
          token,
        ),
      );
      const created: NewEvent = { organisationId: lenderOrganisationId, environment: lead.environment, api: "lender", event: "deal.created", subjectType: "deal", subjectId: ref, detail: {} };
      statements.push(eventInsertWhere(db, created, submissionWon(lead.id, token), at));
    }
  }

  for (const offer of simulated) statements.push(offerInsertForSubmission(db, offer, lead.id, token));

  const state: LeadState = !matched ? "out_of_scope" : presented ? "offers_available" : "matched";
  const leadEvents = ["lead.submitted", matched ? "lead.matched" : "lead.out_of_scope", ...(presented ? ["lead.offers_available"] : [])];
  return { state, leadEvents, statements };
}
