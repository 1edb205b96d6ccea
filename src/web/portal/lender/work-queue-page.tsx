/**
 * The lender's work queue: the deals waiting on the lender's action, the nearest to funding first,
 * then what the client just did (documents arrived, a reply), then in review and new. Each deal
 * says its age and who works it; "Mine" keeps the deals assigned to the viewer (issue 45 item 5).
 */
import { environmentInWords, LABELS } from "../../kit/format";
import type { DealSummaryView } from "../../../domain/deals/view";
import type { WORK_STAGES } from "../../../domain/deals/work-queue";
import type { PortalViewer } from "../../../domain/portal/viewer";
import { PORTAL_ROUTE } from "../context";
import { PortalPage } from "../layout";
import { day, money, orDash } from "./labels";

interface WorkQueuePageProps {
  viewer: PortalViewer;
  formToken: string;
  total: number;
  /** How many deals this view lists (all of them, or the viewer's own with "Mine"). */
  shown: number;
  mine: boolean;
  groups: {
    stage: (typeof WORK_STAGES)[number];
    deals: (DealSummaryView & { waiting_since: string; age: string; assignee: { id: string; email: string } | null })[];
  }[];
}

export const workQueuePage = (p: WorkQueuePageProps) => {
  const env = environmentInWords(p.viewer.environment);
  const who = (a: { id: string; email: string } | null) => (a === null ? "nobody assigned" : a.id === p.viewer.memberId ? "assigned to you" : `assigned to ${a.email}`);
  return (
    <PortalPage title="Work queue" viewer={p.viewer} formToken={p.formToken}>
      <nav aria-label="Whose deals" class="queue-filter">
        {p.mine ? <a href={`${PORTAL_ROUTE}/queue`}>All deals</a> : <strong aria-current="page">All deals</strong>}{" · "}
        {p.mine ? <strong aria-current="page">Mine</strong> : <a href={`${PORTAL_ROUTE}/queue?mine=1`}>Mine</a>}
      </nav>
      {p.total === 0 ? (
        <p id="queue-empty">
          Nothing waits on you in the {env} environment. New deals, deals in review, client replies and uploads, accepted offers, payout accounts given and signed agreements
          appear here. <a href={`${PORTAL_ROUTE}/deals`}>See all deals</a>.
        </p>
      ) : p.mine && p.shown === 0 ? (
        <p id="queue-mine-empty">None of the {p.total} waiting deals is assigned to you. Open a deal and assign it under “Your team's work on this deal”.</p>
      ) : (
        <p>
          {p.mine ? `${p.shown} of the ${p.total} waiting ${p.total === 1 ? "deal is" : "deals are"} assigned to you` : `${p.total} ${p.total === 1 ? "deal waits" : "deals wait"} on you`} in the {env}{" "}
          environment, the nearest to funding first.
        </p>
      )}
      {p.groups
        .filter((g) => g.deals.length > 0)
        .map((g) => (
          <section aria-labelledby={`stage-${g.stage.value}`} data-stage={g.stage.value}>
            <h2 id={`stage-${g.stage.value}`}>
              {g.stage.label} ({g.deals.length})
            </h2>
            <p class="muted">{g.stage.action}</p>
            <ul class="cards">
              {g.deals.map((d) => (
                <li data-deal={d.ref}>
                  <a href={`${PORTAL_ROUTE}/deals/${d.ref}`}>
                    <bdi>{orDash(d.business.name)}</bdi>
                  </a>
                  {d.test ? <span class="muted"> (test)</span> : null}, {money(d.amount, d.currency)}, {LABELS.market(d.market)}.{" "}
                  <span data-age>Received {d.age === "today" ? "today" : `${d.age} ago`}</span>; last change {day(d.waiting_since)}; <span data-assignee>{who(d.assignee)}</span>.{" "}
                  <span class="muted">Reference {d.ref}</span>
                </li>
              ))}
            </ul>
          </section>
        ))}
    </PortalPage>
  );
};
