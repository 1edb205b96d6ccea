import { environmentInWords, LABELS } from "../../kit/format";
import { Copyable } from "../../kit/copy";
import { RecordTable } from "../../kit/table";
import type { DealSummaryView } from "../../../domain/deals/view";
import { DECLINE_REASONS, LENDER_STATUSES, type LenderStatus } from "../../../domain/reference/values";
import type { PortalViewer } from "../../../domain/portal/viewer";
import { PORTAL_ROUTE } from "../context";
import { FieldError, PortalPage, type PageFeedback } from "../layout";
import { LENDER_STATUS_LABELS, day, money, orDash } from "./labels";

interface DealsPageProps {
  viewer: PortalViewer;
  formToken: string;
  deals: DealSummaryView[];
  status: LenderStatus | null;
  /** The decline-reason code the list is filtered by (`?reasons=`), or null. */
  reason: string | null;
  /** A page size asked for with `?limit=`; kept in the paging links. */
  limit: number | null;
  nextCursor: string | null;
  /** Whether this is a later page (a link back to the first is offered). */
  paged: boolean;
  feedback?: PageFeedback;
}

const pageLink = (status: LenderStatus | null, reason: string | null, limit: number | null, cursor?: string) => {
  const query = new URLSearchParams();
  if (status) query.set("status", status);
  if (reason) query.set("reasons", reason);
  if (limit !== null) query.set("limit", String(limit));
  if (cursor) query.set("cursor", cursor);
  const q = query.toString();
  return `${PORTAL_ROUTE}/deals${q ? `?${q}` : ""}`;
};

/** The deals routed to the lender in the chosen environment, newest first, filtered by lender_status, a page at a time. */
export const dealsPage = (p: DealsPageProps) => {
  const error = p.feedback?.error ?? null;
  return (
    <PortalPage title="Deals" viewer={p.viewer} formToken={p.formToken} feedback={p.feedback}>
      <form method="get" action={`${PORTAL_ROUTE}/deals`}>
        <label for="status">Your status</label>
        <select id="status" name="status" aria-describedby={error?.field === "status" ? "status-error" : undefined} aria-invalid={error?.field === "status" ? "true" : undefined}>
          <option value="">Any status</option>
          {LENDER_STATUSES.map((s) => (
            <option value={s} selected={p.status === s}>
              {LENDER_STATUS_LABELS[s]}
            </option>
          ))}
        </select>
        <FieldError field="status" error={error} />
        <label for="reasons">Declined because</label>
        <select id="reasons" name="reasons" aria-describedby={error?.field === "reasons" ? "reasons-error" : undefined} aria-invalid={error?.field === "reasons" ? "true" : undefined}>
          <option value="">Any reason</option>
          {DECLINE_REASONS.map((r) => (
            <option value={r.value} selected={p.reason === r.value}>
              {r.label}
            </option>
          ))}
        </select>
        <FieldError field="reasons" error={error} />
        {p.limit !== null ? <input type="hidden" name="limit" value={String(p.limit)} /> : null}
        <button type="submit">Show</button>
      </form>
      {p.deals.length === 0 ? (
        <p>{p.reason ? `No deals declined for this reason in the ${environmentInWords(p.viewer.environment)} environment.` : p.status ? `No deals with the status “${LENDER_STATUS_LABELS[p.status]}” in the ${environmentInWords(p.viewer.environment)} environment.` : `No deals in the ${environmentInWords(p.viewer.environment)} environment yet.`}</p>
      ) : (
        <RecordTable
          label="Deals"
          rows={p.deals}
          rowData={(d) => ({ deal: d.ref })}
          columns={[
            {
              header: "Deal",
              rowHeader: true,
              cell: (d) => (
                <>
                  <Copyable value={d.ref} anchor={`deal-${d.ref}`} what="the deal reference" />
                  {d.test ? <span class="muted"> (test)</span> : null}
                </>
              ),
            },
            {
              header: "Business",
              cell: (d) => (
                <a href={`${PORTAL_ROUTE}/deals/${d.ref}`} aria-label={`${d.business.name ?? "Business not named"}: open deal ${d.ref}`}>
                  <bdi>{orDash(d.business.name)}</bdi>
                </a>
              ),
            },
            { header: "Amount", cell: (d) => money(d.amount, d.currency) },
            { header: "Market", cell: (d) => LABELS.market(d.market) },
            { header: "Your status", cell: (d) => LENDER_STATUS_LABELS[d.lender_status] },
            { header: "Received", cell: (d) => day(d.created_at) },
          ]}
        />
      )}
      <p>
        {p.paged ? <a href={pageLink(p.status, p.reason, p.limit)}>First page</a> : null} {p.nextCursor ? <a href={pageLink(p.status, p.reason, p.limit, p.nextCursor)} rel="next">Next page</a> : null}
      </p>
    </PortalPage>
  );
};
