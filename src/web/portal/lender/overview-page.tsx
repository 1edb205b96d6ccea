import { environmentInWords, LABELS } from "../../kit/format";
import type { LenderStatus } from "../../../domain/reference/values";
import type { PortalViewer } from "../../../domain/portal/viewer";
import { PORTAL_ROUTE } from "../context";
import { PortalPage } from "../layout";
import { LENDER_STATUS_LABELS } from "./labels";

interface LenderOverviewProps {
  viewer: PortalViewer;
  formToken: string;
  counts: { status: LenderStatus; count: number }[];
}

/** The lender's pipeline: how many deals stand at each lender_status, each a link to the filtered list. */
export const lenderOverviewPage = (p: LenderOverviewProps) => (
  <PortalPage title="Overview" viewer={p.viewer} formToken={p.formToken}>
    <p>
      Signed in to {p.viewer.organisationName} as {LABELS.role(p.viewer.role).toLowerCase()}, looking at the {environmentInWords(p.viewer.environment)} environment.
    </p>
    <h2>Deals by your status</h2>
    <div class="table-wrap" role="region" aria-label="Deals by status" tabindex={0}>
      <table>
        <thead>
          <tr>
            <th scope="col">Your status</th>
            <th scope="col">Deals</th>
          </tr>
        </thead>
        <tbody>
          {p.counts.map((c) => (
            <tr>
              <td>
                <a href={`${PORTAL_ROUTE}/deals?status=${c.status}`}>{LENDER_STATUS_LABELS[c.status]}</a>
              </td>
              <td data-status={c.status}>{c.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
    <p>
      <a href={`${PORTAL_ROUTE}/deals`}>All deals</a>
    </p>
  </PortalPage>
);
