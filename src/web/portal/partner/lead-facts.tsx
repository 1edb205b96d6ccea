/** What the lead says of the business: the figures with their basis, the register's facts, the significant persons. */
import { formatFor, LABELS } from "../../kit/format";
import { PORTAL_ROUTE } from "../context";
import { shown, type LeadView } from "./lead-view";

export function Figures({ lead }: { lead: LeadView }) {
  const { funding, trading, currency } = lead;
  const f = formatFor(lead.country);
  const rows: [string, string, string][] = [
    ["Amount", f.withBasis(f.money(funding.amount, currency), funding.amount_basis), f.amountBand(funding.amount_band, currency)],
    ["Monthly revenue", f.withBasis(f.money(trading.monthly_revenue, currency), trading.monthly_revenue_basis), f.revenueBand(trading.monthly_revenue_band, currency)],
    ["Annual turnover", f.withBasis(f.money(trading.annual_turnover, currency), trading.annual_turnover_basis), "—"],
    ["Months trading", f.withBasis(shown(trading.tib_months), trading.tib_months_basis), LABELS.timeInBusinessBand(trading.time_in_business_band)],
  ];
  if (trading.credit_score_band !== undefined) rows.push(["Credit score", "—", LABELS.creditScoreBand(trading.credit_score_band)]);
  return (
    <div class="table-wrap">
      <table>
        <caption class="muted">The figure matched on, with where it comes from, and the band the applicant gave.</caption>
        <thead>
          <tr>
            <th scope="col">Figure</th>
            <th scope="col">Value and basis</th>
            <th scope="col">Applicant's band</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([name, value, band]) => (
            <tr>
              <th scope="row">{name}</th>
              <td>{value}</td>
              <td>{band}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function RegisterFacts({ lead }: { lead: LeadView }) {
  const registry = lead.business.registry;
  if (!registry) return <p>The company register has not been asked yet (no company number, or the answer is on its way).</p>;
  const asked = lead.registryLastAsked ? ` (last asked ${formatFor(lead.country).time(lead.registryLastAsked)})` : "";
  if (registry.status !== "available") return <p id="register-reason">The company register could not answer: {LABELS.registerReason(registry.reason)}{asked}.</p>;
  const facts: [string, unknown][] = [
    ["Registered name", registry.registered_name],
    ["Status", registry.company_status],
    ["Company type", registry.company_type],
    ["Incorporated on", formatFor(lead.country).date(registry.incorporated_on)],
    ["Company age (months)", registry.company_age_months],
    ["Industry codes", Array.isArray(registry.sic_codes) ? registry.sic_codes.join(", ") : null],
    ["Directors", Array.isArray(registry.directors) ? registry.directors.length : null],
    ["Insolvency history", registry.has_insolvency_history === null || registry.has_insolvency_history === undefined ? null : registry.has_insolvency_history ? "yes" : "no"],
  ];
  return (
    <dl>
      {facts.map(([name, value]) => (
        <>
          <dt>{name}</dt>
          <dd>{shown(value)}</dd>
        </>
      ))}
    </dl>
  );
}

export function Persons({ lead }: { lead: LeadView }) {
  const persons = lead.significant_persons;
  const total = persons.reduce((sum, p) => sum + (p.ownership_percent ?? 0), 0);
  const link = `${PORTAL_ROUTE}/leads/${encodeURIComponent(lead.id)}/persons`;
  return (
    <>
      <p>
        {persons.length === 0 ? (
          "None yet."
        ) : (
          <>
            {persons.map((p, i) => (
              <>
                {i > 0 ? ", " : ""}
                <bdi>{p.full_name}</bdi>
              </>
            ))}
            {`: ${Number(total.toFixed(4))}% of the business between them.`}
          </>
        )}
      </p>
      <p>
        <a href={link}>{lead.state === "draft" ? "Add or change significant persons" : "See the significant persons"}</a>
      </p>
    </>
  );
}
