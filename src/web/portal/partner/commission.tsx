/**
 * The partner admin's "Commission" page (docs/commission.md, "For the partner"): the month's statement
 * as the API's GET /partner/v1/commissions/statements/{month} gives it (the same service, the same month
 * rule), in the kit's one table, with its CSV download. Admins only, like the other money and
 * integration pages; a member or a lender is answered 404.
 */
import type { Hono } from "hono";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { isMonth } from "../../../domain/commission/month";
import { minorToDecimal, type CurrencyCode } from "../../../domain/commission/money";
import { partnerStatement } from "../../../services/commission/reads";
import { formatFor, LABELS } from "../../kit/format";
import { RecordTable } from "../../kit/table";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { FieldError, PortalPage } from "../layout";
import { requireAdmin, requireKind } from "../require-role";

const KIND_WORDS: Record<string, string> = { accrued: "Accrued (deal funded)", paid: "Paid to you", clawed_back: "Clawed back" };

type Statement = Awaited<ReturnType<typeof partnerStatement>>["statement"];

function CommissionPage(props: { c: PortalContext; month: string; statement: Statement | null; error?: string }) {
  const { c, month, statement, error } = props;
  // The statement's minor units in the kit's one money form (its currency's digits, domain/commission/money.ts).
  const money = (minor: number, currency: string) => formatFor(null).money(Number(minorToDecimal(minor, currency as CurrencyCode)), currency);
  return (
    <PortalPage title="Commission" viewer={c.get("viewer")} formToken={c.get("formToken")} feedback={{ error: error ? { message: error, field: null } : null }}>
      <p class="muted">What you earn as introducer when a deal you introduced is funded, month by month (UTC). Entries are never changed: a payment or a clawback is a new line.</p>
      <form method="get" action={`${PORTAL_ROUTE}/commission`}>
        <label for="commission-month">Month</label>
        <input type="month" id="commission-month" name="month" value={month} aria-describedby={error ? "month-error" : undefined} />
        <FieldError field="month" error={error ? { field: "month", message: error } : null} />
        <button type="submit">Show</button>
      </form>
      {statement === null ? null : statement.entries.length === 0 ? (
        <p>No commission entries in this month.</p>
      ) : (
        <>
          <RecordTable
            label="Totals"
            rows={statement.totals}
            columns={[
              { header: "Currency", rowHeader: true, cell: (t) => t.currency },
              { header: "Accrued", cell: (t) => money(t.accrued, t.currency) },
              { header: "Paid", cell: (t) => money(t.paid, t.currency) },
              { header: "Clawed back", cell: (t) => money(t.clawed_back, t.currency) },
              { header: "Net for the month", cell: (t) => money(t.net, t.currency) },
            ]}
          />
          <RecordTable
            label="Entries"
            rows={statement.entries}
            columns={[
              { header: "When", cell: (e) => <time datetime={e.created_at}>{formatFor(null).time(e.created_at)}</time> },
              { header: "Entry", rowHeader: true, cell: (e) => KIND_WORDS[e.kind] ?? e.kind },
              { header: "Lead", cell: (e) => <a href={`${PORTAL_ROUTE}/leads/${e.lead_id}`}>Open the lead</a> },
              { header: "Product", cell: (e) => (e.product_family ? LABELS.productFamily(e.product_family) : "—") },
              { header: "Amount", cell: (e) => money(e.amount, e.currency) },
              { header: "Payment reference", cell: (e) => e.payment_reference ?? "—" },
            ]}
          />
          <p>
            <a href={`${PORTAL_ROUTE}/commission/${month}.csv`} download={`commission-${month}.csv`}>
              Download this statement (CSV)
            </a>
          </p>
        </>
      )}
    </PortalPage>
  );
}

export function registerCommissionPage(portal: Hono<PortalEnv>) {
  for (const path of ["/commission", "/commission/*"]) portal.use(path, requireKind("partner"), requireAdmin);
  portal.get("/commission", async (c) => {
    const month = c.req.query("month") || new Date().toISOString().slice(0, 7);
    if (!isMonth(month)) return c.html(<CommissionPage c={c} month={month} statement={null} error="Choose a month, for example 2026-11." />, 400);
    const found = await partnerStatement(c.get("deps"), scopeOfViewer(c.get("viewer")), month);
    return c.html(<CommissionPage c={c} month={month} statement={found.statement} />);
  });
  portal.get("/commission/:file{[0-9]{4}-[0-9]{2}\\.csv}", async (c) => {
    const month = c.req.param("file").slice(0, 7);
    if (!isMonth(month)) return c.notFound();
    const found = await partnerStatement(c.get("deps"), scopeOfViewer(c.get("viewer")), month);
    return c.body(found.csv(), 200, { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="commission-${month}.csv"` });
  });
}
