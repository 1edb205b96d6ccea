import { html, raw } from "hono/html";
import { SCHEME_FIELDS } from "../../domain/hub/account-details";
import type { completionPage as loadCompletionPage } from "../../services/hub/client-hub";
import { feedback, invalidIf, layout, requiredMark, type Feedback, type HubView } from "./layout";

type CompletionPage = Awaited<ReturnType<typeof loadCompletionPage>>;

/**
 * Completing an accepted deal: account details first (form 1), then, once the
 * provider uploaded it, reading and signing the agreement (form 2).
 */
export function completionPage({ base, local, readOnly = false }: HubView, p: CompletionPage, f: Feedback = {}, draft: Record<string, string> = {}) {
  const { deal, completion, scheme, agreementUrl } = p;
  const action = `${base}/deals/${deal.deal.ref}/completion`;
  const accepted = deal.deal.status === "offer_accepted" && !readOnly;
  const accountStep = completion.account_submitted
    ? html`<p id="account-summary">Account details submitted ${local.time(completion.account_submitted_at)}: <strong><bdi>${completion.account_summary}</bdi></strong></p>`
    : accepted
      ? html`<form method="post" action="${action}/account">
<label for="account_holder_name">Account holder name${requiredMark}</label><input id="account_holder_name" type="text" name="account_holder_name" maxlength="140" autocomplete="name" value="${draft.account_holder_name ?? ""}" required${invalidIf(f, "account_holder_name")}>
${SCHEME_FIELDS[scheme].map(
  (field) =>
    html`<label for="${field.name}">${field.label} <span class="muted">(${field.hint})</span>${requiredMark}</label><input id="${field.name}" type="text" name="${field.name}" ${field.name === "iban" ? raw('autocapitalize="characters" ') : raw('inputmode="numeric" ')}autocomplete="off" spellcheck="false" value="${draft[field.name] ?? ""}" required${invalidIf(f, field.name)}>`,
)}
<button type="submit">Submit account details</button></form>`
      : html`<p class="muted">Account details are asked for once you have accepted this offer.</p>`;
  const signStep = completion.signed
    ? html`<p id="signed">Signed ${local.time(completion.signed_at)}.</p>${agreementUrl ? html`<p><a href="${agreementUrl}">Download the agreement (PDF)</a></p>` : ""}`
    : !completion.agreement_uploaded || !agreementUrl
      ? html`<p class="muted">The agreement is not ready yet. When the funding provider uploads it, it appears on this page and under Notifications on your hub's overview.</p>`
      : html`<p><a href="${agreementUrl}">Read the agreement (PDF)</a>, uploaded ${local.time(completion.agreement_uploaded_at)}.</p>${
          completion.account_submitted && accepted
            ? html`<form method="post" action="${action}/signature">
<label for="full_name">Type your full name to sign${requiredMark}</label><input id="full_name" type="text" name="full_name" maxlength="140" autocomplete="name" value="${draft.full_name ?? ""}" required${invalidIf(f, "full_name")}>
<label><input type="checkbox" name="consent" value="yes" required${invalidIf(f, "consent")}> I have read the agreement and sign it electronically.${requiredMark}</label>
<button type="submit">Sign the agreement</button></form>`
            : html`<p class="muted">Submit your account details first.</p>`
        }`;
  const content = html`<h1>Completion: ${deal.label} (${deal.deal.ref})</h1>
${feedback(f)}
<h2>1. Account for the payout</h2>${accountStep}
<h2>2. Agreement</h2>${signStep}`;
  return layout(`Completion: ${deal.deal.ref}`, base, content, readOnly);
}
