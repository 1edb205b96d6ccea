/** The offers with their accept and decline, what each routed option decided, and what would open more options. */
import { requirementLabel } from "../../../domain/panel/requirements";
import { formatFor, LABELS } from "../../kit/format";
import { RecordTable } from "../../kit/table";
import { ConfirmStart } from "../../kit/confirm";
import { OFFER_DECLINE_REASONS } from "../../../domain/reference/values";
import { PORTAL_ROUTE, type PortalContext } from "../context";
import { FormToken } from "../layout";
import { acceptPath, type LeadView } from "./lead-view";

export function Offers({ c, lead }: { c: PortalContext; lead: LeadView }) {
  const f = formatFor(lead.country);
  const money = f.money;
  if (!lead.submitted_at) return <p>Offers appear here once the lead is submitted and matched.</p>;
  if (lead.offers.length === 0) return <p>No offers yet.</p>;
  return (
    <>
      {lead.environment === "sandbox" ? <p class="muted">Sandbox: these offers are simulated from the panel's price ranges; no funding provider saw this lead.</p> : null}
      <RecordTable
        label="Offers"
        rows={lead.offers}
        // An offer that can no longer be taken (withdrawn, expired, accepted elsewhere) says so and is drawn muted.
        rowData={(offer) => ({ offer: offer.id })}
        inactive={(offer) => (offer.state === "presented" || offer.state === "accepted" ? null : offer.state === "declined" ? `Declined: ${offer.declined?.label ?? ""}` : LABELS.status(offer.state))}
        columns={[
          { header: "Offer", rowHeader: true, cell: (offer) => offer.label },
          { header: "Amount", cell: (offer) => money(offer.amount, offer.currency) },
          { header: "Terms", cell: (offer) => LABELS.status(offer.maturity) },
          { header: "Cost", cell: (offer) => (offer.annual_rate_pct !== null ? `${offer.annual_rate_pct}% a year` : offer.factor_rate !== null ? `Factor ${offer.factor_rate}` : "—") },
          { header: "Fees", cell: (offer) => money(offer.fees, offer.currency) },
          { header: "Total to repay", cell: (offer) => money(offer.total_repayment, offer.currency) },
          { header: "Term", cell: (offer) => (offer.term_months !== null ? `${offer.term_months} months` : "—") },
          { header: "Expires", cell: (offer) => (offer.expires_at ? f.time(offer.expires_at) : "No expiry given") },
          { header: "State", cell: (offer) => LABELS.status(offer.state) },
          {
            header: "Action",
            actions: true,
            cell: (offer) =>
              offer.state === "presented" ? <ConfirmStart href={acceptPath(lead.id, offer.id)} label={`Review and accept ${offer.label} for ${money(offer.amount, offer.currency)}`} /> : null,
          },
        ]}
      />
      {lead.all_offers_declined ? (
        <p data-all-offers-declined>The client declined every offer on this lead. A lender may still send new terms; they would appear here.</p>
      ) : null}
      <DeclineOffer c={c} lead={lead} />
    </>
  );
}

/**
 * The business's own "no", sent by the partner for the client (issue 41): one of the presented offers
 * and a reason from `offer-decline-reasons`, through the API's own declineOffer.
 */
function DeclineOffer({ c, lead }: { c: PortalContext; lead: LeadView }) {
  const presented = lead.offers.filter((o) => o.state === "presented");
  if (presented.length === 0) return null;
  const money = formatFor(lead.country).money;
  return (
    <form method="post" action={`${PORTAL_ROUTE}/leads/${encodeURIComponent(lead.id)}/offers/decline`} data-decline-offer>
      <h3>Decline an offer for the client</h3>
      <p class="muted">When the client does not want an offer: its lender is told, and the offer can no longer be accepted.</p>
      <FormToken token={c.get("formToken")} />
      <label for="decline-offer">Offer</label>
      <select id="decline-offer" name="offer_id">
        {presented.map((o) => (
          <option value={o.id}>{`${o.label}, ${money(o.amount, o.currency)}`}</option>
        ))}
      </select>
      <label for="reason_code">Why the client declines</label>
      <select id="reason_code" name="reason_code">
        {OFFER_DECLINE_REASONS.map((r) => (
          <option value={r.value}>{r.label}</option>
        ))}
      </select>
      <button type="submit">Decline the offer</button>
    </form>
  );
}

/** What each routed option's outcome is, in words (the API's `outcome` values). */
const OUTCOME_WORDS: Record<string, string> = {
  pending: "Not yet reviewed",
  in_review: "Being reviewed",
  offer_made: "Offer made",
  offer_accepted: "Offer accepted",
  declined: "Declined",
  funded: "Funded",
};

/**
 * What became of each option the lead was routed to, anonymised as the API's `outcomes`: the option's
 * number and product family, where it stands, and why it was declined in the list's words (with the
 * lender's note only when the lender shared it). No provider is named.
 */
export function Outcomes({ lead }: { lead: LeadView }) {
  const outcomes = lead.outcomes ?? [];
  if (outcomes.length === 0) return null;
  const f = formatFor(lead.country);
  return (
    <section aria-labelledby="outcomes-heading" id="outcomes">
      <h2 id="outcomes-heading">What each option decided</h2>
      <ul>
        {outcomes.map((o) => (
          <li data-option={o.option} data-outcome={o.outcome}>
            <strong>{o.option}</strong> ({LABELS.productFamily(o.product_family)}): {OUTCOME_WORDS[o.outcome] ?? o.outcome}, <time datetime={o.at}>{f.time(o.at)}</time>
            {o.reasons.length > 0 ? (
              <ul>
                {o.reasons.map((r) => (
                  <li data-reason={r.code}>
                    {r.label}
                    {r.detail ? <>: “<bdi>{r.detail}</bdi>”</> : null}
                  </li>
                ))}
              </ul>
            ) : o.outcome === "declined" ? (
              <span class="muted"> (no reason given)</span>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

const moreOptions = (n: number) => `${n} more option${n === 1 ? "" : "s"}`;

/**
 * What would open more options (the API's `unlocks`, recomputed after each decline on the options still
 * open), in words: time trading as the months still to go when the lead holds its months, so a partner
 * reads "With 12 more months of trading: 1 more option". Nothing but the figure and a count.
 */
export function Unlocks({ lead }: { lead: LeadView }) {
  const unlocks = lead.unlocks ?? [];
  if (unlocks.length === 0 && (lead.needs ?? []).length === 0) return null;
  const f = formatFor(lead.country);
  const tib = lead.trading.tib_months;
  const line = (u: (typeof unlocks)[number]) => {
    const needed = Number(u.needed);
    switch (u.field) {
      case "funding.amount":
        return `Asking for ${f.money(needed, lead.currency)}`;
      case "trading.monthly_revenue":
        return `With monthly revenue of ${f.money(needed, lead.currency)}`;
      case "trading.tib_months":
        return tib !== null && needed > tib ? `With ${needed - tib} more months of trading (${needed} in all)` : `After ${needed} months of trading`;
      case "trading.credit_score_band":
        return `With a credit score band of ${LABELS.creditScoreBand(String(u.needed))}`;
      default:
        return `With ${requirementLabel(u.field).toLowerCase()}`;
    }
  };
  // A set of several requirements that only together add an option (a single one is an unlock above).
  const needs = (lead.needs ?? []).filter((n) => n.fields.length > 1);
  return (
    <section aria-labelledby="unlocks-heading" id="unlocks">
      <h2 id="unlocks-heading">What would open more options</h2>
      <ul>
        {unlocks.map((u) => (
          <li data-unlock={u.field} data-needed={String(u.needed)} data-added={String(u.options_added)}>
            {line(u)}: {moreOptions(u.options_added)}
          </li>
        ))}
        {needs.map((n) => (
          <li data-need={n.fields.join(" ")} data-added={String(n.options_added)}>
            With {n.fields.map((field) => requirementLabel(field).toLowerCase()).join(" and ")}: {moreOptions(n.options_added)}
          </li>
        ))}
      </ul>
    </section>
  );
}
