import { html } from "hono/html";
import type { ToDo, ToDoKind } from "../../domain/hub/to-do";
import type { hubOverview } from "../../services/hub/client-hub";
import { fileSizeInWords, LABELS } from "../kit/format";
import { consentView } from "../../domain/leads/consent";
import { feedback, layout, type Feedback, type HubView } from "./layout";
import { offerCard } from "./offer-card";

type Overview = Awaited<ReturnType<typeof hubOverview>>;

const CHANNEL_WORDS: Record<string, string> = { application_link: "by you, through your application link", partner_api: "declared by your adviser", portal: "declared by your adviser" };

/**
 * The consent receipt, the same facts the partner's lead and the lender's deal carry:
 * which text version, its hash, the locale, when, how, the soft search choice and the disclosure shown.
 */
function consentSection(lead: Overview["lead"], local: HubView["local"]) {
  const { receipt, withdrawn_at } = consentView(lead.consent);
  if (!receipt) return "";
  return html`<h2>Your consent</h2>
<dl class="card" id="consent-receipt"><dt>Consent text</dt><dd>version ${receipt.text_version} (${receipt.locale})</dd>
<dt>Text fingerprint (sha256)</dt><dd><code>${receipt.text_sha256}</code></dd>
<dt>Agreed</dt><dd>${local.time(receipt.agreed_at)}, ${CHANNEL_WORDS[receipt.channel] ?? receipt.channel}</dd>
<dt>Soft credit search</dt><dd>${receipt.soft_credit_search ? "agreed" : "not agreed"}</dd>
<dt>Commission disclosure shown</dt><dd>${receipt.disclosure_version ? `version ${receipt.disclosure_version}` : "none recorded"}</dd>
${withdrawn_at ? html`<dt>Withdrawn</dt><dd>${local.time(withdrawn_at)}</dd>` : ""}</dl>`;
}


/** Each thing to do as a link the business can follow, in its words. */
const TO_DO_TEXT: Record<ToDoKind, (about: string) => string> = {
  sign: (about) => `Sign the agreement for ${about}`,
  give_account: (about) => `Give the bank account to pay ${about} into`,
  upload: (about) => `Upload: ${about}`,
  reply: (about) => `Reply to the funding provider's message about ${about}`,
  review_offer: (about) => `Review the offer: ${about}`,
};

function toDoCard(base: string, items: readonly ToDo[], readOnly: boolean) {
  if (readOnly) return "";
  return html`<section class="card todo" id="to-do" aria-labelledby="to-do-heading"><h2 id="to-do-heading">To do</h2>${
    items.length === 0
      ? html`<p>Nothing for you to do right now. When a funding provider asks for something, it appears here.</p>`
      : html`<ul>${items.map((item) => html`<li data-to-do="${item.kind}"><a href="${base}${item.path}">${TO_DO_TEXT[item.kind](item.about)}</a></li>`)}</ul>`
  }</section>`;
}

/** The business's home: who its adviser is, what it has to do now, then its offers, requests, deals, notifications and uploads. */
export function overviewPage(view: HubView, o: Overview, f: Feedback = {}) {
  const { base, local } = view;
  const business = o.lead.business?.name ?? "Your business";
  const now = new Date();
  const content = html`<h1><bdi>${business}</bdi></h1>
${o.adviser ? html`<p id="adviser">Your adviser: <strong><bdi>${o.adviser}</bdi></strong></p>` : ""}
<p>Application reference <strong>${o.lead.reference}</strong>, status <strong>${LABELS.leadState(o.lead.state)}</strong>.</p>
${feedback(f)}
${toDoCard(base, o.toDo, view.readOnly ?? false)}
${consentSection(o.lead, local)}
<h2>Your offers</h2>
${
  o.everyOfferDeclined
    ? html`<p id="all-declined" class="notice">You declined every offer on your application. Your adviser has been told; speak to them if you still need funding.</p>`
    : ""
}
${
  o.offers.length === 0
    ? html`<p class="muted">No offer yet. Offers appear here as soon as a funding provider makes one.</p>`
    : html`<ul class="cards" id="offers">${o.offers.map((offer) => html`<li>${offerCard(view, offer, o.lead.state, now, true)}</li>`)}</ul>`
}
<h2>Documents requested from you</h2>
${
  o.openRequests.length === 0
    ? html`<p class="muted">Nothing is requested at the moment.</p>`
    : html`<ul class="cards" id="requests">${o.openRequests.map(
        ({ request, deal }) =>
          html`<li><h3><a href="${base}/requests/${request.id}">${request.label}</a></h3><dl>
${request.note ? html`<dt>Note</dt><dd dir="auto">${request.note}</dd>` : ""}
<dt>Requested</dt><dd>${local.time(request.requestedAt)}</dd>
<dt>Status</dt><dd>${LABELS.requestStatus(request.status)}</dd>
<dt>For</dt><dd>${deal.label} (${deal.deal.ref})</dd></dl></li>`,
      )}</ul>`
}
<h2>Your applications</h2>
${
  o.deals.length === 0
    ? html`<p class="muted">No funding provider is looking at your application yet.</p>`
    : html`<ul class="cards" id="deals">${o.deals.map(
        ({ deal, label }) =>
          html`<li><h3>${label}</h3><dl><dt>Reference</dt><dd>${deal.ref}</dd></dl><p><a href="${base}/deals/${deal.ref}/messages">Messages</a> · <a href="${base}/deals/${deal.ref}/completion">Completion</a></p></li>`,
      )}</ul>${
        o.hiddenDeals > 0
          ? html`<p class="muted" id="other-deals-closed">You accepted an offer, so the other funding ${o.hiddenDeals === 1 ? "provider's application is" : "providers' applications are"} closed and no longer shown.</p>`
          : ""
      }`
}
<h2>Notifications</h2>
${
  o.notifications.length === 0
    ? html`<p class="muted">No notifications.</p>`
    : html`<ul>${o.notifications.map((n) => html`<li>${local.time(n.createdAt)}: <a href="${base}${n.deepLink}">${n.subject}</a></li>`)}</ul>`
}
<h2>Documents you uploaded</h2>
${
  o.uploads.length === 0
    ? html`<p class="muted">You have not uploaded anything yet.</p>`
    : html`<ul class="cards" id="uploads">${o.uploads.map(
        (d) =>
          html`<li><h3><bdi>${d.filename}</bdi></h3><dl><dt>Type</dt><dd>${LABELS.documentType(d.documentType)}</dd><dt>Size</dt><dd>${fileSizeInWords(d.byteSize)}</dd><dt>Uploaded</dt><dd>${local.time(d.receivedAt)}</dd></dl></li>`,
      )}</ul>`
}
<p class="muted">Times are shown in ${local.timeZone} time.</p>`;
  return layout(`${business}: your application`, base, content, view.readOnly);
}
