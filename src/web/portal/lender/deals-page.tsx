import { environmentInWords, LABELS } from "../../kit/format";
import type { DealSummaryView } from "../../../domain/deals/view";
import { LENDER_STATUSES, type LenderStatus } from "../../../domain/reference/values";
import type { PortalViewer } from "../../../domain/portal/viewer";
import { PORTAL_ROUTE } from "../context";
import { FieldError, PortalPage, type PageFeedback } from "../layout";
import { LENDER_STATUS_LABELS, day, money, orDash } from "./labels";

export interface DealsPageProps {
  viewer: PortalViewer;
  formToken: string;
  deals: DealSummaryView[];
  status: LenderStatus | null;
  /** A page size asked for with `?limit=`; kept in the paging links. */
  limit: number | null;
  nextCursor: string | null;
  /** Whether this is a later page (a link back to the first is offered). */
  paged: boolean;
  feedback?: PageFeedback;
}

const pageLink = (status: LenderStatus | null, limit: number | null, cursor?: string) => {
  const query = new URLSearchParams();
  if (status) query.set("status", status);
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
        {p.limit !== null ? <input type="hidden" name="limit" value={String(p.limit)} /> : null}
        <button type="submit">Show</button>
      </form>
      {p.deals.length === 0 ? (
        <p>{p.status ? `No deals with the status “${LENDER_STATUS_LABELS[p.status]}” in the ${environmentInWords(p.viewer.environment)} environment.` : `No deals in the ${environmentInWords(p.viewer.environment)} environment yet.`}</p>
      ) : (
        <div class="table-wrap" role="region" aria-label="Deals" tabindex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Deal</th>
                <th scope="col">Business</th>
                <th scope="col">Amount</th>
                <th scope="col">Market</th>
                <th scope="col">Your status</th>
                <th scope="col">Received</th>
              </tr>
            </thead>
            <tbody>
              {p.deals.map((d) => (
                <tr data-deal={d.ref}>
                  <td>
                    <a href={`${PORTAL_ROUTE}/deals/${d.ref}`}>{d.ref}</a>
                    {d.test ? <span class="muted"> (test)</span> : null}
                  </td>
                  <td>
                    <bdi>{orDash(d.business.name)}</bdi>
                  </td>
                  <td>{money(d.amount, d.currency)}</td>
                  <td>{LABELS.market(d.market)}</td>
                  <td>{LENDER_STATUS_LABELS[d.lender_status]}</td>
                  <td>{day(d.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p>
        {p.paged ? <a href={pageLink(p.status, p.limit)}>First page</a> : null} {p.nextCursor ? <a href={pageLink(p.status, p.limit, p.nextCursor)} rel="next">Next page</a> : null}
      </p>
    </PortalPage>
  );
};
