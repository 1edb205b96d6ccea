/** The lender's sandbox: its test deals (at most 10 at once), a form to make one, and how to rehearse a deal with them. */
import { Copyable } from "../../kit/copy";
import { environmentInWords, LABELS } from "../../kit/format";
import type { DealSummaryView } from "../../../domain/deals/view";
import { MARKETS } from "../../../domain/reference/markets";
import type { PortalViewer } from "../../../domain/portal/viewer";
import { PORTAL_ROUTE } from "../context";
import { FieldError, FormToken, PortalPage, type PageFeedback } from "../layout";
import { LENDER_STATUS_LABELS, day, money, orDash } from "./labels";

interface SandboxPageProps {
  viewer: PortalViewer;
  formToken: string;
  deals: DealSummaryView[];
  cap: number;
  feedback?: PageFeedback;
  /** What was typed in the create form before it was refused. */
  draft?: Record<string, string>;
}

const HOW_TO = [
  "Create a test deal below: it is routed only to you, marked as a test, and fires deal.created to your webhooks like a real one.",
  "Open it and make an offer, as you would on a real deal.",
  "Play the business with the buttons under “Simulate the business”: it accepts the offer, replies, uploads a requested document, gives its payout account and signs your agreement.",
  "Upload the agreement, then report the deal funded. Every step sends the same events and webhooks a real deal would.",
];

export const sandboxPage = (p: SandboxPageProps) => {
  const error = p.feedback?.error ?? null;
  const full = p.deals.length >= p.cap;
  const draft = p.draft ?? {};
  const invalid = (name: string) => (error?.field === name ? { "aria-invalid": "true", "aria-describedby": `${name}-error`, autofocus: true } : {});
  return (
    <PortalPage title="Test deals" viewer={p.viewer} formToken={p.formToken} feedback={p.feedback}>
      <p class="muted">
        Test deals let you rehearse a whole deal from this browser, in the {environmentInWords(p.viewer.environment)} environment, without a partner or a real business. At most {p.cap} exist at
        once; delete one to make room.
      </p>
      {p.deals.length === 0 ? (
        <section aria-labelledby="start-heading" id="start">
          <h2 id="start-heading">How to start</h2>
          <p>You have no test deals yet.</p>
          <ol>
            {HOW_TO.map((step) => (
              <li>{step}</li>
            ))}
          </ol>
        </section>
      ) : (
        <section aria-labelledby="test-deals-heading" id="test-deals">
          <h2 id="test-deals-heading">
            Your test deals ({p.deals.length} of {p.cap})
          </h2>
          <ul class="cards">
            {p.deals.map((d) => (
              <li data-test-deal={d.ref}>
                {/* The reference is copied with the one copy control, as on the deals list; the business opens the deal. */}
                <Copyable value={d.ref} anchor={`test-deal-${d.ref}`} what="the deal reference" />{" "}
                <a href={`${PORTAL_ROUTE}/deals/${d.ref}#simulate`} aria-label={`${d.business.name ?? "Business not named"}: open test deal ${d.ref}`}>
                  <bdi>{orDash(d.business.name)}</bdi>
                </a>
                , {money(d.amount, d.currency)}, {LABELS.market(d.market)}. {LENDER_STATUS_LABELS[d.lender_status]}, made {day(d.created_at)}.
                <form method="get" action={`${PORTAL_ROUTE}/sandbox/deals/${d.ref}/delete`}>
                  <button type="submit" aria-label={`Delete test deal ${d.ref}`}>
                    Delete…
                  </button>
                </form>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="create-heading" id="create">
        <h2 id="create-heading">Create a test deal</h2>
        {full ? (
          <p id="cap-reached">You have {p.cap} test deals, the most there can be: delete one above to make another.</p>
        ) : (
          <form method="post" action={`${PORTAL_ROUTE}/sandbox/deals`}>
            <FormToken token={p.formToken} />
            <label for="country">Market of the business</label>
            <select id="country" name="country" {...invalid("country")}>
              {MARKETS.map((m) => (
                <option value={m.country} selected={(draft.country || "GB") === m.country}>
                  {m.name} ({m.currency})
                </option>
              ))}
            </select>
            <FieldError field="country" error={error} />
            <label for="amount">Amount asked for (optional; 50000 unless you say)</label>
            <input type="text" inputmode="decimal" id="amount" name="amount" value={draft.amount ?? ""} {...invalid("amount")} />
            <FieldError field="amount" error={error} />
            <button type="submit">Create test deal</button>
          </form>
        )}
      </section>
    </PortalPage>
  );
};
