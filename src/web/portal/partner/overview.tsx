/**
 * A partner's home page: what needs the partner today ("Waiting on you": offers to answer, client links
 * about to expire), what waits on its clients ("Waiting on your client": a lender's open document
 * requests), then this month's leads per state, in the picked environment (issue 45 item 2).
 */
import { environmentInWords, formatFor, LABELS } from "../../kit/format";
import type { Waiting as WaitingLists, WaitingLead } from "../../../domain/portal/partner-waiting";
import { waitingOnPartner } from "../../../services/leads/waiting";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { leadsByStateThisMonth } from "../../../services/leads/counts";
import { PORTAL_ROUTE, type PortalContext } from "../context";
import { PortalPage } from "../layout";

export async function partnerOverviewPage(c: PortalContext) {
  const viewer = c.get("viewer");
  const [month, waiting] = await Promise.all([leadsByStateThisMonth(c.get("deps"), scopeOfViewer(viewer)), waitingOnPartner(c.get("deps"), scopeOfViewer(viewer))]);
  const f = formatFor(null);
  const monthName = new Date(month.since).toLocaleString("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });
  return c.html(
    <PortalPage title="Overview" viewer={viewer} formToken={c.get("formToken")}>
      <p>
        Signed in to {viewer.organisationName} as {LABELS.role(viewer.role).toLowerCase()}, looking at the {environmentInWords(viewer.environment)} environment.
      </p>
      <Waiting waiting={waiting} time={f.time} />
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

/** A lead as a line of the overview: the business and its reference, linked to the lead (at `anchor`). */
const LeadLink = ({ lead, anchor }: { lead: WaitingLead; anchor: string }) => (
  <a href={`${PORTAL_ROUTE}/leads/${encodeURIComponent(lead.leadId)}#${anchor}`}>
    <bdi>{lead.businessName ?? "Unnamed business"}</bdi> ({lead.reference})
  </a>
);

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

function Waiting({ waiting, time }: { waiting: WaitingLists; time: (iso: string) => string }) {
  const onYou = waiting.offersToAnswer.length + waiting.linksExpiring.length;
  return (
    <>
      <section aria-labelledby="waiting-on-you" id="on-you">
        <h2 id="waiting-on-you">Waiting on you</h2>
        {onYou === 0 ? (
          <p>Nothing today.</p>
        ) : (
          <ul>
            {waiting.offersToAnswer.map((o) => (
              <li data-waiting="offers">
                <LeadLink lead={o} anchor="offers" />: {plural(o.offers, "offer")} to accept or decline with the client
                {o.soonestExpiry ? (o.expiringSoon ? <strong>{`, the first expires ${time(o.soonestExpiry)}`}</strong> : `, the first expires ${time(o.soonestExpiry)}`) : ""}
              </li>
            ))}
            {waiting.linksExpiring.map((l) => (
              <li data-waiting="link">
                <LeadLink lead={l} anchor="hub-link" />: the client's link stops working {time(l.expiresAt)}; make a new one and send it
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="waiting-on-client" id="on-client">
        <h2 id="waiting-on-client">Waiting on your client</h2>
        {waiting.requestsOpen.length === 0 ? (
          <p>Nothing: no lender is waiting for a document.</p>
        ) : (
          <ul>
            {waiting.requestsOpen.map((r) => (
              <li data-waiting="requests">
                <LeadLink lead={r} anchor="lender-needs" />: {plural(r.requests, "document")} a lender asked for since {time(r.since)}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
