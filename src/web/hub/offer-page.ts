import { html } from "hono/html";
import type { Offer } from "../../domain/deals/types";
import { offerStanding } from "../../domain/hub/offer-standing";
import type { Lead } from "../../domain/leads/types";
import { feedback, layout, type Feedback, type HubView } from "./layout";
import { offerCard } from "./offer-card";

/**
 * One offer and, while it is open, the form that accepts it: the page the
 * business confirms on, and where it lands after accepting or being refused.
 */
export function offerPage(view: HubView, lead: Lead, offer: Offer, f: Feedback = {}) {
  const { base, readOnly = false } = view;
  const standing = offerStanding(offer, lead.state, new Date());
  const next =
    standing === "accepted"
      ? html`<p>You accepted this offer. The funding provider now prepares the agreement${
          offer.dealRef && !offer.simulated ? html`; follow it on the <a href="${base}/deals/${offer.dealRef}/completion">completion page</a>` : ""
        }.</p>`
      : standing === "open" && !readOnly
        ? html`<form method="post" action="${base}/offers/${offer.id}/acceptance">
<p>Accepting this offer tells its funding provider to go ahead; every other offer on your application closes.</p>
<button type="submit">Accept this offer</button></form>`
        : "";
  const content = html`<h1>Your offer</h1>
${feedback(f)}
<section aria-label="Offer terms" class="card">${offerCard(view, offer, lead.state, new Date(), false)}</section>
${next}
<p><a href="${base}">Back to your application</a></p>`;
  return layout(`Offer: ${offer.label}`, base, content, readOnly);
}
