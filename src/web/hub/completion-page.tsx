import { SCHEME_FIELDS } from "../../domain/hub/account-details";
import type { completionPage as loadCompletionPage } from "../../services/hub/client-hub";
import { FeedbackLines, FieldError, HubPage, invalidIf, RequiredMark, type Feedback, type HubView } from "./layout";

type CompletionPage = Awaited<ReturnType<typeof loadCompletionPage>>;

/** Step 1: the account for the payout, once the offer is accepted; its masked summary once given. */
function AccountStep(props: { local: HubView["local"]; p: CompletionPage; f: Feedback; draft: Record<string, string>; action: string; accepted: boolean }) {
  const { local, p, f, draft } = props;
  const { completion, scheme } = p;
  if (completion.account_submitted) {
    return (
      <p id="account-summary">
        Account details submitted {local.time(completion.account_submitted_at)}:{" "}
        <strong>
          <bdi>{completion.account_summary}</bdi>
        </strong>
      </p>
    );
  }
  if (!props.accepted) return <p class="muted">Account details are asked for once you have accepted this offer.</p>;
  return (
    <form method="post" action={`${props.action}/account`}>
      <label for="account_holder_name">
        Account holder name
        <RequiredMark />
      </label>
      <input id="account_holder_name" type="text" name="account_holder_name" maxlength={140} autocomplete="name" value={draft.account_holder_name ?? ""} required {...invalidIf(f, "account_holder_name")} />
      <FieldError f={f} name="account_holder_name" />
      {SCHEME_FIELDS[scheme].map((field) => (
        <>
          <label for={field.name}>
            {field.label} <span class="muted">({field.hint})</span>
            <RequiredMark />
          </label>
          <input
            id={field.name}
            type="text"
            name={field.name}
            {...(field.name === "iban" ? { autocapitalize: "characters" } : { inputmode: "numeric" })}
            autocomplete="off"
            spellcheck={false}
            value={draft[field.name] ?? ""}
            required
            {...invalidIf(f, field.name)}
          />
          <FieldError f={f} name={field.name} />
        </>
      ))}
      <button type="submit">Submit account details</button>
    </form>
  );
}

/** Step 2: the agreement to read, and to sign once the account is given. */
function SignStep(props: { local: HubView["local"]; p: CompletionPage; f: Feedback; draft: Record<string, string>; action: string; accepted: boolean }) {
  const { local, p, f, draft } = props;
  const { completion, agreementUrl } = p;
  if (completion.signed) {
    return (
      <>
        <p id="signed">Signed {local.time(completion.signed_at)}.</p>
        {agreementUrl ? (
          <p>
            <a href={agreementUrl}>Download the agreement (PDF)</a>
          </p>
        ) : null}
      </>
    );
  }
  if (!completion.agreement_uploaded || !agreementUrl) {
    return <p class="muted">The agreement is not ready yet. When the funding provider uploads it, it appears on this page and under Notifications on your hub's overview.</p>;
  }
  return (
    <>
      <p>
        <a href={agreementUrl}>Read the agreement (PDF)</a>, uploaded {local.time(completion.agreement_uploaded_at)}.
      </p>
      {completion.account_submitted && props.accepted ? (
        <form method="post" action={`${props.action}/signature`}>
          <label for="full_name">
            Type your full name to sign
            <RequiredMark />
          </label>
          <input id="full_name" type="text" name="full_name" maxlength={140} autocomplete="name" value={draft.full_name ?? ""} required {...invalidIf(f, "full_name")} />
          <FieldError f={f} name="full_name" />
          <label for="consent">
            <input type="checkbox" id="consent" name="consent" value="yes" required {...invalidIf(f, "consent")} /> I have read the agreement and sign it electronically.
            <RequiredMark />
          </label>
          <FieldError f={f} name="consent" />
          <button type="submit">Sign the agreement</button>
        </form>
      ) : (
        <p class="muted">Submit your account details first.</p>
      )}
    </>
  );
}

/**
 * Completing an accepted deal: account details first (form 1), then, once the
 * provider uploaded it, reading and signing the agreement (form 2).
 */
export function completionPage({ base, local, readOnly = false }: HubView, p: CompletionPage, f: Feedback = {}, draft: Record<string, string> = {}) {
  const { deal } = p;
  const action = `${base}/deals/${deal.deal.ref}/completion`;
  const accepted = deal.deal.status === "offer_accepted" && !readOnly;
  return (
    <HubPage title={`Completion: ${deal.deal.ref}`} base={base} readOnly={readOnly}>
      <h1>
        Completion: {deal.label} ({deal.deal.ref})
      </h1>
      <FeedbackLines f={f} inputs={["account_holder_name", ...SCHEME_FIELDS[p.scheme].map((field) => field.name), "full_name", "consent"]} />
      <h2>1. Account for the payout</h2>
      <AccountStep local={local} p={p} f={f} draft={draft} action={action} accepted={accepted} />
      <h2>2. Agreement</h2>
      <SignStep local={local} p={p} f={f} draft={draft} action={action} accepted={accepted} />
    </HubPage>
  );
}
