/** The deal's facts: what was asked for, the market object's figures with their basis, and the company register's answer. */
import type { DealView } from "../../../domain/deals/view";
import { formatFor, inWords, LABELS } from "../../kit/format";
import { MARKETS } from "../../../domain/reference/markets";
import { LENDER_STATUS_LABELS, day, money, orDash } from "./labels";
import { Section } from "./fields";

const Row = (props: { label: string; value: string }) => (
  <tr>
    <th scope="row">{props.label}</th>
    {/* dir="auto": a value someone typed (a name) is isolated, so a right-to-left one cannot reorder the page around it. */}
    <td dir="auto">{props.value}</td>
  </tr>
);

const FactTable = (props: { label: string; rows: [string, string][] }) => (
  <div class="table-wrap" role="region" aria-label={props.label} tabindex={0}>
    <table>
      <tbody>
        {props.rows.map(([label, value]) => (
          <Row label={label} value={value} />
        ))}
      </tbody>
    </table>
  </div>
);

/** The market's alpha-2 country from the deal's market code (`UK` → `GB`), as the company-type lists are keyed. */
const marketCountry = (code: string) => MARKETS.find((m) => m.code === code || m.country === code)?.country ?? code;

const withBasis = (value: string, basis: string | null | undefined) => (basis && value !== "—" ? `${value} (${LABELS.basis(basis)})` : value);

/** Where the deal stands, in one line: the lender's own status, and what the business did when that says more. */
function standing(d: DealView) {
  const own = LENDER_STATUS_LABELS[d.lender_status];
  if (d.status === "offer_accepted" && d.lender_status === "offer_made") return `${own}: the business accepted your offer`;
  return own;
}

export function DealSummarySection(props: { deal: DealView; introducedBy: string | null }) {
  const d = props.deal;
  const rows: [string, string][] = [
    ["Business", orDash(d.business.name)],
    ["Your status", standing(d)],
    ["Reason given", orDash(d.status_reason)],
    ["Funded amount", money(d.funded_amount, d.request.currency)],
    ["Amount asked for", withBasis(d.request.amount !== null ? money(d.request.amount, d.request.currency) : formatFor(null).amountBand(d.request.amount_band, d.request.currency), d.request.amount_basis)],
    ["Purpose", LABELS.purpose(d.request.purpose)],
    ["Product", LABELS.productFamily(d.request.product_family)],
    ["Introduced by", props.introducedBy ?? (d.test ? "No introducer: a test deal" : "—")],
    ["Contact", [d.contact.first_name, d.contact.last_name].filter(Boolean).join(" ") || "—"],
    ["Contact email", orDash(d.contact.email)],
    ["Contact phone", orDash(d.contact.phone)],
    ["Test deal", d.test ? "yes (sandbox test deal, no client behind it)" : "no"],
    ["Received", day(d.created_at)],
  ];
  return (
    <Section id="summary" title="Summary">
      <FactTable label="Summary" rows={rows} />
    </Section>
  );
}

/**
 * Fields the lender API carries for integrations (the partner's `channel`) mean nothing to an analyst:
 * an admin, who sets up the integration, sees them here in their own section; other members do not.
 */
export function ApiFieldsSection(props: { deal: DealView }) {
  const c = props.deal.channel;
  return (
    <Section id="api-fields" title="For your integration">
      <p class="muted">What the lender API sends with this deal for your systems; shown to admins only.</p>
      <FactTable
        label="For your integration"
        rows={[
          ["Introducer's channel", orDash(c.name)],
          ["Introducer's website", orDash(c.domain)],
        ]}
      />
    </Section>
  );
}

/** The market object's own keys, by their names for a person. */
const MARKET_FIELDS: Record<string, string> = {
  company_register_number: "Company number",
  company_number: "Company number",
  entity_type: "Company type",
  region: "Region",
  credit_score_band: "Credit score band",
  ein: "Employer Identification Number (EIN)",
};

export function MarketSection(props: { deal: DealView }) {
  const m = props.deal.market as DealView["market"] & Record<string, unknown>;
  const rows: [string, string][] = [
    ["Market", LABELS.market(m.country)],
    ["Currency", m.currency],
    ["Monthly revenue", withBasis(m.monthly_revenue !== null ? money(m.monthly_revenue, m.currency) : formatFor(null).revenueBand(m.monthly_revenue_band, m.currency), m.monthly_revenue_basis)],
    ["Annual turnover", withBasis(money(m.annual_turnover, m.currency), m.annual_turnover_basis)],
    ["Time in business", withBasis(m.tib_months !== null ? `${m.tib_months} months` : LABELS.timeInBusinessBand(m.time_in_business_band), m.tib_months_basis)],
  ];
  for (const key of ["company_register_number", "company_number", "entity_type", "region", "credit_score_band", "ein"] as const) {
    if (!(key in m)) continue;
    const value = m[key] as string | null;
    const shown = key === "entity_type" ? LABELS.entityType(marketCountry(m.country), value) : key === "credit_score_band" ? LABELS.creditScoreBand(value) : orDash(value);
    rows.push([MARKET_FIELDS[key]!, shown]);
  }
  for (const [key, value] of Object.entries(m.identifiers ?? {})) rows.push([LABELS.identifier(key), orDash(value as string | null)]);
  if ("vat" in m && m.vat) {
    const vat = m.vat as { number: string | null; valid: boolean | null; registered_name: string | null };
    rows.push(["VAT number", orDash(vat.number)], ["VAT valid", vat.valid === null ? "not checked" : vat.valid ? "yes" : "no"], ["VAT registered name", orDash(vat.registered_name)]);
  }
  return (
    <Section id="market" title="Market facts">
      <FactTable label="Market facts" rows={rows} />
    </Section>
  );
}

export function RegisterSection(props: { deal: DealView }) {
  const registry = props.deal.market.registry;
  if (!registry) {
    return (
      <Section id="register" title="Company register">
        <p>The register has not answered for this business yet.</p>
      </Section>
    );
  }
  if (registry.status !== "available") {
    return (
      <Section id="register" title="Company register">
        <p>
          The register gave no facts: {LABELS.registerReason(registry.reason)}.
        </p>
      </Section>
    );
  }
  const r = registry;
  const office = r.registered_office ? [r.registered_office.line1, r.registered_office.locality, r.registered_office.postal_code].filter(Boolean).join(", ") : null;
  const rows: [string, string][] = [
    ["Source", LABELS.registerSource(r.source)],
    ["Registered name", orDash(r.registered_name)],
    ["Company status", r.company_status ? inWords(r.company_status) : "—"],
    ["Company type", LABELS.registerCompanyType(marketCountry(props.deal.market.country), r.company_type)],
    ["Incorporated on", formatFor(props.deal.market.country).date(r.incorporated_on)],
    ["Company age", r.company_age_months !== null ? `${r.company_age_months} months` : "—"],
    ["Activity codes", r.sic_codes?.join(", ") || "—"],
    ["Registered office", orDash(office)],
    ["Disqualified directors", orDash(r.disqualified_directors_count)],
    ["Charges", orDash(r.charges_count)],
    ["Insolvency history", orDash(r.has_insolvency_history)],
    ["Filed turnover", r.filed_financials ? money(r.filed_financials.turnover, props.deal.market.currency) : "—"],
    ["Accounts overdue", orDash(r.accounts?.overdue)],
    ["Checked", day(r.checked_at)],
  ];
  return (
    <Section id="register" title="Company register">
      <FactTable label="Company register" rows={rows} />
    </Section>
  );
}
