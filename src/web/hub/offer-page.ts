import { html } from "hono/html";
import type { Offer } from "../../domain/deals/types";
import { offerStanding } from "../../domain/hub/offer-standing";
import type { Lead } from "../../domain/leads/types";
import { feedback, invalidIf, layout, type Feedback, type HubView } from "./layout";
import { OFFER_DECLINE_REASONS } from "../../domain/reference/values";
import { offerCard } from "./offer-card";
import type { CommissionDisclosure } from "../../domain/commission/disclosure";

/**
 * The introducer's commission, told before the accept button (CONC 4.5.3R): its nature, and the
 * amount once the business asks "How much?" (4.5.4R), a link so the asking is recorded too.
 */
function commissionSection(base: string, offer: Offer, disclosures: readonly CommissionDisclosure[]) {
  const nature = disclosures.find((d) => d.what === "nature");
  if (!nature) return "";
  const amount = disclosures.find((d) => d.what === "amount");
  return html`<section aria-labelledby="commission-heading" class="card" id="commission" data-commission-disclosure="${nature.disclosureVersion}">
<h2 id="commission-heading">Your adviser's commission</h2>
<p>${nature.text}</p>
${amount ? html`<p data-commission-amount>${amount.text}</p>` : html`<p><a href="${base}/offers/${offer.id}/commission#commission">How much?</a></p>`}
</section>`;
}

/**
 * One offer and, while it is open, the form that accepts it: the page the
 * business confirms on, and where it lands after accepting or being refused.
 */
export function offerPage(view: HubView, lead: Lead, offer: Offer, f: Feedback = {}, disclosures: readonly CommissionDisclosure[] = []) {
  const { base, readOnly = false } = view;
  const standing = offerStanding(offer, lead.state, new Date());
  const next =
    standing === "accepted"
      ? html`<p>You accepted this offer. The funding provider now prepares the agreement${
          offer.dealRef && !offer.simulated ? html`; follow it on the <a href="${base}/deals/${offer.dealRef}/completion">completion page</a>` : ""
        }.</p>`
      : standing === "open" && !readOnly
        ? html`${commissionSection(base, offer, disclosures)}<form method="post" action="${base}/offers/${offer.id}/acceptance">
<p>Accepting this offer tells its funding provider to go ahead; every other offer on your application closes.</p>
<button type="submit">Accept this offer</button></form>
<form method="post" action="${base}/offers/${offer.id}/decline" data-decline>
<h2>Not for you?</h2>
<p>Declining tells the funding provider and your adviser that you do not want this offer. It cannot be accepted afterwards.</p>
<fieldset><legend>Why are you declining?</legend>
${OFFER_DECLINE_REASONS.map((r, i) => html`<label><input type="radio" name="reason_code" value="${r.value}"${i === 0 ? invalidIf(f, "reason_code") : ""}> ${r.label}</label>`)}
</fieldset>
<button type="submit">Decline this offer</button></form>`
        : standing === "declined"
          ? html`<p>You declined this offer. The funding provider and your adviser have been told.</p>`
          : "";
  const content = html`<h1>Your offer</h1>
${feedback(f)}
<section aria-label="Offer terms" class="card">${offerCard(view, offer, lead.state, new Date(), false)}</section>
${next}
<p><a href="${base}">Back to your application</a></p>`;
  return layout(`Offer: ${offer.label}`, base, content, readOnly);
}
