/** Completion: what has happened towards it, and the agreement upload (a PDF the client signs in the hub). */
import type { DealView } from "../../../domain/deals/view";
import { AGREEMENT_MAX_BYTES } from "../../../api/shared/schemas/deal-actions";
import { signatureInWords, sizeInWords } from "../../kit/format";
import { PORTAL_ROUTE } from "../context";
import { FieldError, FormToken, RequiredMark } from "../layout";
import { FormRefusal, Section, refusalFor, type FormState } from "./fields";
import { day } from "./labels";
import type { DealRefusal } from "./fields";

const done = (yes: boolean, at: string | null) => (yes ? `yes, ${day(at)}` : "not yet");

export function CompletionSection(props: { deal: DealView; formToken: string; refusal: DealRefusal | null; closed?: boolean; admin?: boolean }) {
  const c = props.deal.completion;
  const state: FormState = { form: "agreement", refusal: props.refusal };
  const refused = refusalFor(state)?.field === "agreement";
  return (
    <Section id="completion" title="Completion">
      <div class="table-wrap" role="region" aria-label="Completion" tabindex={0}>
        <table>
          <tbody>
            <tr>
              <th scope="row">Account details submitted</th>
              <td>{done(c.account_submitted, c.account_submitted_at)}</td>
            </tr>
            <tr>
              <th scope="row">Payout account</th>
              <td data-completion="account">
                {c.account_summary ? (
                  <>
                    <bdi>{c.account_summary}</bdi> (masked)
                    {props.admin ? (
                      // A post, not a link: each showing is one audited request, and the full account is on that answer only.
                      <form method="post" action={`${PORTAL_ROUTE}/deals/${props.deal.ref}/payout-account`}>
                        <FormToken token={props.formToken} />
                        <button type="submit">Show the full account</button> <span class="muted">Shown once, on the next page; recorded in the audit log.</span>
                      </form>
                    ) : (
                      <span class="muted"> An admin of your organisation can see it in full.</span>
                    )}
                  </>
                ) : (
                  "not given yet"
                )}
              </td>
            </tr>
            <tr>
              <th scope="row">Agreement uploaded</th>
              <td data-completion="agreement">{done(c.agreement_uploaded, c.agreement_uploaded_at)}</td>
            </tr>
            <tr>
              <th scope="row">Signed</th>
              <td>{done(c.signed, c.signed_at)}</td>
            </tr>
            <tr>
              <th scope="row">Signature check</th>
              <td data-completion="signature">{signatureInWords(c.signature_verification)}</td>
            </tr>
          </tbody>
        </table>
      </div>
      {props.closed ? null : c.signed ? (
        <>
          <p id="agreement-immutable">The business signed the agreement; a signed agreement cannot be replaced.</p>
          <FormRefusal state={state} fields={["agreement"]} />
        </>
      ) : (
        <>
          <h3>Upload the agreement</h3>
          <form method="post" action={`${PORTAL_ROUTE}/deals/${props.deal.ref}/agreement`} enctype="multipart/form-data">
            <FormToken token={props.formToken} />
            <label for="agreement">Agreement (PDF, at most {sizeInWords(AGREEMENT_MAX_BYTES)}; replaces an earlier upload)
              <RequiredMark />
            </label>
            <input type="file" id="agreement" name="agreement" accept="application/pdf" required aria-describedby={refused ? "agreement-error" : undefined} aria-invalid={refused ? "true" : undefined} autofocus={refused || undefined} />
            <FieldError field="agreement" error={refusalFor(state)} />
            <FormRefusal state={state} fields={["agreement"]} />
            <button type="submit">Upload agreement</button>
          </form>
        </>
      )}
    </Section>
  );
}
