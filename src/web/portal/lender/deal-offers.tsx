/** Offers made on the deal (current and superseded) and the form for new terms, indicative or firm. */
import type { DealView } from "../../../domain/deals/view";
import { PRODUCT_FAMILIES } from "../../../domain/reference/values";
import { PORTAL_ROUTE } from "../context";
import { FormToken } from "../layout";
import { FormRefusal, Section, SelectField, TextArea, TextField, type FormState } from "./fields";
import { LABELS } from "../../kit/format";
import { day, money, orDash } from "./labels";
import type { DealRefusal } from "./fields";

export const OFFER_FIELDS = ["maturity", "amount", "kind", "annual_rate_pct", "factor_rate", "term_months", "fees", "total_repayment", "expires_at", "notes"] as const;
export const OFFER_NUMBERS = ["amount", "annual_rate_pct", "factor_rate", "term_months", "fees", "total_repayment"] as const;

const MATURITIES = [
  { value: "indicative", label: "Indicative: terms subject to checks" },
  { value: "firm", label: "Firm: terms you stand by" },
];

export function OffersSection(props: { deal: DealView; formToken: string; refusal: DealRefusal | null }) {
  const d = props.deal;
  const state: FormState = { form: "offer", refusal: props.refusal };
  return (
    <Section id="offers" title="Offers">
      {d.offers.length === 0 ? (
        <p>You have made no offer on this deal.</p>
      ) : (
        <div class="table-wrap" role="region" aria-label="Offers" tabindex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Terms</th>
                <th scope="col">Amount</th>
                <th scope="col">Rate</th>
                <th scope="col">Term</th>
                <th scope="col">State</th>
                <th scope="col">Made</th>
              </tr>
            </thead>
            <tbody>
              {d.offers.map((o) => (
                <tr data-offer={o.id}>
                  <td>{LABELS.status(o.maturity)}</td>
                  <td>{money(o.amount, o.currency)}</td>
                  <td>{o.annual_rate_pct !== null ? `${o.annual_rate_pct}% a year` : o.factor_rate !== null ? `factor ${o.factor_rate}` : "—"}</td>
                  <td>{o.term_months !== null ? `${o.term_months} months` : "—"}</td>
                  <td>{o.superseded ? `superseded by ${LABELS.status(o.superseded_by ?? "").toLowerCase()} terms` : LABELS.status(o.status)}</td>
                  <td>{day(o.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3>Make an offer</h3>
      <p class="muted">New terms replace the current ones; indicative terms cannot replace firm ones. Give a yearly rate or a factor rate, not both.</p>
      <form method="post" action={`${PORTAL_ROUTE}/deals/${d.ref}/offers`}>
        <FormToken token={props.formToken} />
        <SelectField state={state} name="maturity" label="Terms" options={MATURITIES} />
        <TextField state={state} name="amount" label={`Amount (${d.request.currency})`} type="number" step="0.01" min="0" required />
        <SelectField state={state} name="kind" label="Product" options={PRODUCT_FAMILIES} />
        <TextField state={state} name="annual_rate_pct" label="Yearly rate (%)" type="number" step="0.01" min="0" />
        <TextField state={state} name="factor_rate" label="Factor rate" type="number" step="0.001" min="1" />
        <TextField state={state} name="term_months" label="Term (months)" type="number" step="1" min="1" />
        <TextField state={state} name="fees" label={`Fees (${d.request.currency})`} type="number" step="0.01" min="0" />
        <TextField state={state} name="total_repayment" label={`Total repayment (${d.request.currency})`} type="number" step="0.01" min="0" />
        <TextField state={state} name="expires_at" label="Valid until (end of that day, UTC)" type="date" />
        <TextArea state={state} name="notes" label="Notes (optional)" maxlength={2000} />
        <FormRefusal state={state} fields={OFFER_FIELDS} />
        <button type="submit">Make offer</button>
      </form>
    </Section>
  );
}

const REPORTS = [
  { value: "in_review", label: "In review" },
  { value: "declined", label: "Declined" },
  { value: "funded", label: "Funded" },
];

export function StatusSection(props: { deal: DealView; formToken: string; refusal: DealRefusal | null }) {
  const state: FormState = { form: "status", refusal: props.refusal };
  return (
    <Section id="report" title="Report your status">
      <p class="muted">New → in review; new, in review or offer made → declined; offer made → funded, with the amount funded.</p>
      <form method="post" action={`${PORTAL_ROUTE}/deals/${props.deal.ref}/status`}>
        <FormToken token={props.formToken} />
        <SelectField state={state} name="status" label="Status" options={REPORTS} />
        <TextField state={state} name="reason" label="Reason (optional)" />
        <TextField state={state} name="funded_amount" label={`Funded amount (${props.deal.request.currency}, with Funded only)`} type="number" step="0.01" min="0" />
        <FormRefusal state={state} fields={["status", "reason", "funded_amount"]} />
        <button type="submit">Report status</button>
      </form>
    </Section>
  );
}
