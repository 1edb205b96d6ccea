/**
 * What an analyst underwrites from (issue 45 item 6): the directors, application and register side
 * by side, and the latest bank statement month by month. Read by services/deals/underwriting.ts.
 */
import type { DealForUnderwriting } from "../../../services/deals/underwriting";
import { formatFor } from "../../kit/format";
import { RecordTable } from "../../kit/table";
import { Section } from "./fields";
import { money } from "./labels";

const MONTH = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", month: "long", year: "numeric" });
const monthName = (month: string) => MONTH.format(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 1));

export function DirectorsSection(props: { deal: DealForUnderwriting }) {
  const rows = props.deal.directors;
  const dates = formatFor(props.deal.view.market.country === "UK" ? "GB" : props.deal.view.market.country);
  return (
    <Section id="directors" title="Directors and significant persons">
      <p class="muted">What the application says beside what the company register lists, one row per person; a dash where one side does not name them.</p>
      {rows.length === 0 ? (
        <p>Neither the application nor the register names a director or significant person yet.</p>
      ) : (
        <RecordTable
          label="Directors and significant persons"
          rows={rows}
          columns={[
            { header: "Name", rowHeader: true, cell: (r) => <bdi>{r.name}</bdi> },
            { header: "Date of birth (application)", cell: (r) => (r.application ? dates.date(r.application.date_of_birth) : "—") },
            { header: "Share (application)", cell: (r) => (r.application?.ownership_percent != null ? `${r.application.ownership_percent}%` : "—") },
            { header: "Role (register)", cell: (r) => (r.register?.role ? r.register.role.charAt(0).toUpperCase() + r.register.role.slice(1).replace(/[-_]/g, " ") : "—") },
            { header: "Appointed (register)", cell: (r) => (r.register ? dates.date(r.register.appointed_on) : "—") },
            {
              header: "Register notes",
              cell: (r) =>
                !r.register
                  ? "Not on the register"
                  : [r.register.resigned_on ? `Resigned ${dates.date(r.register.resigned_on)}` : null, r.register.disqualified ? "Disqualified" : null].filter(Boolean).join("; ") || "—",
            },
          ]}
        />
      )}
    </Section>
  );
}

export function StatementMonthsSection(props: { deal: DealForUnderwriting }) {
  const s = props.deal.statements;
  const currency = s?.currency ?? props.deal.view.market.currency;
  const dates = formatFor(null);
  return (
    <Section id="statements" title="Bank statement by month">
      {!s ? (
        <p>No bank statement the service could read (CSV or OFX) is on this deal yet.</p>
      ) : !s.months ? (
        <p>
          The statement from {dates.date(s.period_start)} to {dates.date(s.period_end)} was read before months were kept: credits {money(s.credits_total, currency)}, debits{" "}
          {money(s.debits_total, currency)} in all. A new upload shows each month.
        </p>
      ) : (
        <>
          <p class="muted">
            The latest readable statement, {dates.date(s.period_start)} to {dates.date(s.period_end)}; a month with no transactions shows as zero.
          </p>
          <RecordTable
            label="Bank statement by month"
            rows={s.months}
            rowData={(m) => ({ month: m.month })}
            columns={[
              { header: "Month", rowHeader: true, cell: (m) => monthName(m.month) },
              { header: "Money in", cell: (m) => money(m.credits, currency) },
              { header: "Money out", cell: (m) => money(m.debits, currency) },
            ]}
          />
        </>
      )}
    </Section>
  );
}
