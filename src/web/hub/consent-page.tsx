/**
 * Withdrawing consent from the client hub before submission: the overview's way in, and the kit's confirm
 * page (web/kit/confirm.tsx) that alone posts the withdrawal, so a stray click changes nothing.
 */
import type { Lead } from "../../domain/leads/types";
import { consentWithdrawalStanding } from "../../domain/leads/consent";
import { Confirm, CONFIRMED } from "../kit/confirm";
import { FeedbackLines, HubPage, type Feedback, type HubView } from "./layout";

export const consentWithdrawalPath = (base: string) => `${base}/consent/withdraw`;

/** On the overview: the way to withdraw while the lead is a draft, or who to ask once it was sent. */
export function consentWithdrawalSection(view: HubView, lead: Lead) {
  if (view.readOnly) return null;
  switch (consentWithdrawalStanding(lead)) {
    case "withdrawable":
      return (
        <p id="consent-withdrawal">
          Until your application is sent to funding providers you can withdraw your consent: <a href={consentWithdrawalPath(view.base)}>Withdraw your consent</a>.
        </p>
      );
    case "submitted":
      return (
        <p id="consent-withdrawal" class="muted">
          Your application was sent to funding providers, so your consent can no longer be withdrawn here: ask your adviser.
        </p>
      );
    case "none":
      return null;
  }
}

/** The question, what was agreed, what withdrawing does; the one form that withdraws. */
export function consentWithdrawalPage(view: HubView, lead: Lead, f: Feedback = {}) {
  const { base, local } = view;
  const receipt = lead.consent?.receipt ?? null;
  const facts: [string, string][] = [
    ["Consent", receipt ? `text version ${receipt.text_version} (${receipt.locale}), agreed ${local.time(receipt.agreed_at)}` : "declared by your adviser"],
    ["Soft credit search", lead.consent?.soft_credit_search ? "agreed" : "not agreed"],
  ];
  const form =
    consentWithdrawalStanding(lead) === "withdrawable" ? (
      <Confirm
        question="Withdraw your consent to this application?"
        facts={facts}
        consequence="Your application will not be sent to funding providers, and your adviser is told at once. The record of what you agreed stays on your application."
        next="if you want to go ahead later, ask your adviser: you agree again before anything is sent."
        action={consentWithdrawalPath(base)}
        hidden={CONFIRMED}
        confirmLabel="Withdraw my consent"
        cancelHref={base}
        cancelLabel="Keep my consent, go back"
      />
    ) : (
      <p>There is no consent to withdraw here any more.</p>
    );
  return (
    <HubPage title="Withdraw your consent" base={base}>
      <h1>Withdraw your consent</h1>
      <FeedbackLines f={f} />
      {form}
      <p>
        <a href={base}>Back to your application</a>
      </p>
    </HubPage>
  );
}
