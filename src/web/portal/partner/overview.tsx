/** A partner's home page: this month's leads per state, in the picked environment. */
import { environmentInWords, LABELS } from "../../kit/format";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { leadsByStateThisMonth } from "../../../services/leads/counts";
import { PORTAL_ROUTE, type PortalContext } from "../context";
import { PortalPage } from "../layout";

export async function partnerOverviewPage(c: PortalContext) {
  const viewer = c.get("viewer");
  const month = await leadsByStateThisMonth(c.get("deps"), scopeOfViewer(viewer));
  const monthName = new Date(month.since).toLocaleString("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });
  return c.html(
    <PortalPage title="Overview" viewer={viewer} formToken={c.get("formToken")}>
      <p>
        Signed in to {viewer.organisationName} as {LABELS.role(viewer.role).toLowerCase()}, looking at the {environmentInWords(viewer.environment)} environment.
      </p>
      <h2>Leads opened in {monthName}</h2>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">State</th>
              <th scope="col">Leads</th>
            </tr>
          </thead>
          <tbody>
            {month.states.map((s) => (
              <tr>
                <th scope="row">
                  <a href={`${PORTAL_ROUTE}/leads?state=${s.state}`}>{s.label}</a>
                </th>
                <td data-state={s.state}>{s.leads}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">All</th>
              <td data-state="all">{month.total}</td>
            </tr>
          </tfoot>
        </table>
      </div>
      <p>
        <a href={`${PORTAL_ROUTE}/leads/new`}>Open a new lead</a> · <a href={`${PORTAL_ROUTE}/prequalification`}>Check eligibility first</a>
      </p>
    </PortalPage>,
  );
}
