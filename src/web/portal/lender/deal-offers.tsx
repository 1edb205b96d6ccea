/** Offers made on the deal (current and superseded) and the form for new terms, indicative or firm. */
import type { DealView } from "../../../domain/deals/view";
import { PRODUCT_FAMILIES } from "../../../domain/reference/values";
import { portalFundingRefusal } from "../../../domain/deals/status";
import { ConfirmStart } from "../../kit/confirm";
import { PORTAL_ROUTE } from "../context";
import { FormToken } from "../layout";
import { FormRefusal, Section, SelectField, TextArea, TextField, draftOf, refusalFor, type FormState } from "./fields";
import { FieldError } from "../layout";
import { LABELS } from "../../kit/format";
import { RecordTable } from "../../kit/table";
import { day, money, orDash } from "./labels";
import type { DealRefusal } from "./fields";
import { EXAMPLE_OF } from "../../kit/number-input";

/** Each number field's own example (the one input rule, web/kit/number-input.ts), as a hint beside it. */
const hintOf = (kind: keyof typeof EXAMPLE_OF) => ` (${EXAMPLE_OF[kind]})`;

const OFFER_FIELDS = ["maturity", "amount", "kind", "annual_rate_pct", "factor_rate", "term_months", "fees", "total_repayment", "expires_at", "notes"] as const;
export const OFFER_NUMBERS = ["amount", "annual_rate_pct", "factor_rate", "term_months", "fees", "total_repayment"] as const;

const MATURITIES = [
  { value: "indicative", label: "Indicative: terms subject to checks" },
  { value: "firm", label: "Firm: terms you stand by" },
];

export function OffersSection(props: { deal: DealView; formToken: string; refusal: DealRefusal | null; closed?: boolean }) {
  const d = props.deal;
  const state: FormState = { form: "offer", refusal: props.refusal };
  return (
    <Section id="offers" title="Offers">
      {d.offers.length === 0 ? (
        <p>You have made no offer on this deal.</p>
      ) : (
        <RecordTable
          label="Offers"
          rows={d.offers}
          // Terms replaced by newer ones are no longer in force: named so, and drawn muted.
          rowData={(o) => ({ offer: o.id })}
          inactive={(o) => (o.superseded ? `Superseded by ${LABELS.status(o.superseded_by ?? "").toLowerCase()} terms` : null)}
          columns={[
            {
              header: "Offer",
              rowHeader: true,
              cell: (o) => (
                <>
                  {LABELS.status(o.maturity)} offer: <span data-offer-state={o.status}>{LABELS.status(o.status)}</span>
                </>
              ),
            },
            { header: "Amount", cell: (o) => money(o.amount, o.currency) },
            { header: "Product", cell: (o) => LABELS.productFamily(o.kind) },
            { header: "Rate", cell: (o) => (o.annual_rate_pct !== null ? `${o.annual_rate_pct}% a year` : o.factor_rate !== null ? `Factor ${o.factor_rate}` : "—") },
            { header: "Fees", cell: (o) => (o.fees !== null ? money(o.fees, o.currency) : "—") },
            { header: "Total to repay", cell: (o) => (o.total_repayment !== null ? money(o.total_repayment, o.currency) : "—") },
            { header: "Term", cell: (o) => (o.term_months !== null ? `${o.term_months} months` : "—") },
            { header: "Expires", cell: (o) => (o.expires_at ? day(o.expires_at) : "No expiry given") },
            { header: "Your notes", cell: (o) => (o.notes ? <bdi>{o.notes}</bdi> : orDash(o.notes)) },
            { header: "Made", cell: (o) => day(o.created_at) },
          ]}
        />
      )}
      {props.closed ? null : <MakeOffer deal={d} formToken={props.formToken} state={state} />}
    </Section>
  );
}

function MakeOffer(props: { deal: DealView; formToken: string; state: FormState }) {
  const d = props.deal;
  const state = props.state;
  return (
    <>
      <h3>Make an offer</h3>
      <p class="muted">New terms replace the current ones; indicative terms cannot replace firm ones. Give a yearly rate or a factor rate, not both.</p>
      <form method="post" action={`${PORTAL_ROUTE}/deals/${d.ref}/offers`}>
        <FormToken token={props.formToken} />
        <SelectField state={state} name="maturity" label="Terms" options={MATURITIES} />
        <TextField state={state} name="amount" label={`Amount (${d.request.currency})`} type="number" step="0.01" min="0" required hint={hintOf("money")} />
        <SelectField state={state} name="kind" label="Product" options={PRODUCT_FAMILIES} />
        <TextField state={state} name="annual_rate_pct" label="Yearly rate (%)" type="number" step="0.01" min="0" hint={hintOf("percent")} />
        <TextField state={state} name="factor_rate" label="Factor rate" type="number" step="0.001" min="1" />
        <TextField state={state} name="term_months" label="Term (months)" type="number" step="1" min="1" hint={hintOf("months")} />
        <TextField state={state} name="fees" label={`Fees (${d.request.currency})`} type="number" step="0.01" min="0" hint={hintOf("money")} />
        <TextField state={state} name="total_repayment" label={`Total repayment (${d.request.currency})`} type="number" step="0.01" min="0" hint={hintOf("money")} />
        <TextField state={state} name="expires_at" label="Valid until (the last day the business can accept)" type="date" />
        <TextArea state={state} name="notes" label="Notes (optional)" maxlength={2000} />
        <FormRefusal state={state} fields={OFFER_FIELDS} />
        <button type="submit">Make offer</button>
      </form>
    </>
  );
}

/** A funded or declined deal: its outcome, in place of the forms that would only be refused now. */
export function OutcomeSection(props: { deal: DealView }) {
  const d = props.deal;
  const funded = d.lender_status === "funded" || d.status === "funded";
  return (
    <Section id="outcome" title="Outcome">
      {funded ? (
        <p data-outcome="funded">
          Funded{d.funded_amount !== null ? `: ${money(d.funded_amount, d.request.currency)} paid out` : ""}, reported {day(d.updated_at)}. Nothing more to do on this deal.
        </p>
      ) : (
        <>
          <p data-outcome="declined">Declined, {day(d.updated_at)}. Nothing more to do on this deal.</p>
          {d.decline_reasons.length > 0 ? (
            <ul data-decline-reasons>
              {d.decline_reasons.map((r) => (
                <li data-reason={r.code}>
                  {r.label}
                  {r.detail ? <span class="muted"> ({r.detail}{r.shareable ? ", shared with the partner" : ", not shown to the partner"})</span> : null}
                </li>
              ))}
            </ul>
          ) : null}
        </>
      )}
    </Section>
  );
}

/**
 * What the lender reports on an open deal: In review here (it changes nothing for anyone else), and
 * Decline and Funded as links to their own confirm pages (final, so asked first: outcome-confirm.tsx).
 * Funded is offered once the business accepted the offer; before that the page says what is missing.
 */
export function StatusSection(props: { deal: DealView; formToken: string; refusal: DealRefusal | null }) {
  const state: FormState = { form: "status", refusal: props.refusal };
  const d = props.deal;
  const notYet = portalFundingRefusal({ status: d.status, lenderStatus: d.lender_status });
  return (
    <Section id="report" title="Report your status">
      {d.lender_status === "new" ? (
        <form method="post" action={`${PORTAL_ROUTE}/deals/${d.ref}/status`}>
          <FormToken token={props.formToken} />
          <input type="hidden" name="status" value="in_review" />
          <FormRefusal state={state} fields={[]} />
          <button type="submit">Mark in review</button> <span class="muted">Tells the introducer you are looking at it; it stays in your work queue.</span>
        </form>
      ) : (
        <FormRefusal state={state} fields={[]} />
      )}
      <p>
        <ConfirmStart href={`${PORTAL_ROUTE}/deals/${d.ref}/decline`} label="Decline…" danger />{" "}
        {notYet ? null : <ConfirmStart href={`${PORTAL_ROUTE}/deals/${d.ref}/funded`} label="Report funded…" />}
      </p>
      {notYet ? (
        <p class="muted" id="funded-not-yet">
          {notYet.detail}
        </p>
      ) : null}
    </Section>
  );
}
