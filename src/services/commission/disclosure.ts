/**
 * The commission disclosure where the business sees an offer (docs/commission.md, "Disclosure"): worded
 * by domain/commission/disclosure.ts from the terms in force now, and every showing recorded on the
 * lead (what was shown, where, when), which the lender reads on its deal as evidence.
 *
 * Every place that lets a business accept an offer (the client hub; the application link must too)
 * words the disclosure with `commissionDisclosureFor` before it renders the accept control, shows it,
 * and records the showing with `recordDisclosureShown(deps, lead, disclosure, channel)`; and again with
 * `amount` when the business asks "How much?".
 */
import { isoNow, type Deps } from "../deps";
import { disclosureInsert, productsOfOfferDeal } from "../../db/commission/disclosures";
import { termsCandidates } from "../../db/commission/terms";
import { wordDisclosure, type CommissionDisclosure, type DisclosureChannel, type DisclosureWhat, type MoneyWords } from "../../domain/commission/disclosure";
import { isCurrency } from "../../domain/commission/money";
import { termsInForce } from "../../domain/commission/terms";
import type { Offer } from "../../domain/deals/types";
import type { Lead } from "../../domain/leads/types";
import { newId } from "../../lib/ids";
import { currentPanel } from "../panel/panel-cache";

type DisclosedLead = Pick<Lead, "id" | "organisationId" | "environment">;

/** The product an offer prices by: its deal's (first matched) product, or the panel product a simulated offer came from. */
async function productOf(deps: Deps, offer: Offer): Promise<string | null> {
  if (offer.dealRef) return (await productsOfOfferDeal(deps.db, offer.dealRef))[0] ?? null;
  return (await currentPanel(deps)).find((p) => p.lenderOrganisationId === offer.lenderOrganisationId && p.label === offer.label)?.id ?? null;
}

/** Records one showing of a disclosure to the business behind `lead`: the evidence a deal carries. */
export async function recordDisclosureShown(deps: Deps, lead: DisclosedLead, disclosure: CommissionDisclosure, channel: DisclosureChannel) {
  await deps.db.batch([
    disclosureInsert(deps.db, {
      id: newId("cmd"),
      environment: lead.environment,
      leadId: lead.id,
      offerId: disclosure.offerId,
      dealRef: disclosure.dealRef,
      what: disclosure.what,
      channel,
      disclosureVersion: disclosure.disclosureVersion,
      text: disclosure.text,
      amount: disclosure.amount,
      currency: disclosure.currency,
      shownAt: isoNow(deps),
    }),
  ]);
}

/** The disclosure of `what` for an offer under the terms in force now (null for an offer in a currency no market has), for the page to show and then record. */
export async function commissionDisclosureFor(deps: Deps, lead: DisclosedLead, offer: Offer, what: DisclosureWhat, money?: MoneyWords): Promise<CommissionDisclosure | null> {
  if (!isCurrency(offer.currency)) return null;
  const productId = await productOf(deps, offer);
  const terms = productId ? termsInForce(await termsCandidates(deps.db, offer.lenderOrganisationId, productId, offer.currency, lead.organisationId), lead.organisationId, isoNow(deps)) : null;
  return wordDisclosure(terms, { id: offer.id, dealRef: offer.dealRef, amount: offer.amount, currency: offer.currency }, what, money);
}
