import { html } from "hono/html";
import type { hubOverview } from "../services/client-hub";
import { feedback, layout, when, type Feedback } from "./layout";

type Overview = Awaited<ReturnType<typeof hubOverview>>;

/** The business's home: its lead, what is asked of it, what it was told and what it sent. */
export function overviewPage(base: string, o: Overview, f: Feedback = {}) {
  const business = o.lead.business?.name ?? "Your business";
  const content = html`<h1>${business}</h1>
<p>Application reference <strong>${o.lead.reference}</strong>, status <strong>${o.lead.state.replace(/_/g, " ")}</strong>.</p>
${feedback(f)}
<h2>Documents requested from you</h2>
${
  o.openRequests.length === 0
    ? html`<p class="muted">Nothing is requested at the moment.</p>`
    : html`<table><thead><tr><th>Document</th><th>Note</th><th>Requested</th><th>Status</th><th>For</th></tr></thead><tbody>${o.openRequests.map(
        ({ request, deal }) =>
          html`<tr><td><a href="${base}/requests/${request.id}">${request.label}</a></td><td>${request.note ?? ""}</td><td>${when(request.requestedAt)}</td><td>${request.status}</td><td>${deal.label} (${deal.deal.ref})</td></tr>`,
      )}</tbody></table>`
}
<h2>Your applications</h2>
${
  o.deals.length === 0
    ? html`<p class="muted">No funding provider is looking at your application yet.</p>`
    : html`<table><thead><tr><th>Offer</th><th>Reference</th><th></th></tr></thead><tbody>${o.deals.map(
        ({ deal, label }) =>
          html`<tr><td>${label}</td><td>${deal.ref}</td><td><a href="${base}/deals/${deal.ref}/messages">Messages</a> · <a href="${base}/deals/${deal.ref}/completion">Completion</a></td></tr>`,
      )}</tbody></table>`
}
<h2>Notifications</h2>
${
  o.notifications.length === 0
    ? html`<p class="muted">No notifications.</p>`
    : html`<ul>${o.notifications.map((n) => html`<li>${when(n.createdAt)}: <a href="${base}${n.deepLink}">${n.subject}</a></li>`)}</ul>`
}
<h2>Documents you uploaded</h2>
${
  o.uploads.length === 0
    ? html`<p class="muted">You have not uploaded anything yet.</p>`
    : html`<table><thead><tr><th>File</th><th>Type</th><th>Size</th><th>Uploaded</th></tr></thead><tbody>${o.uploads.map(
        (d) => html`<tr><td>${d.filename}</td><td>${d.documentType.replace(/_/g, " ")}</td><td>${d.byteSize} bytes</td><td>${when(d.receivedAt)}</td></tr>`,
      )}</tbody></table>`
}`;
  return layout(`${business}: your application`, base, content);
}
