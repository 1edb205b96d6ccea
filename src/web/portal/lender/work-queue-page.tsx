/** The lender's work queue: the deals waiting on the lender's action, the nearest to funding first. */
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
  groups: { stage: (typeof WORK_STAGES)[number]; deals: (DealSummaryView & { waiting_since: string })[] }[];
}

export const workQueuePage = (p: WorkQueuePageProps) => (
  <PortalPage title="Work queue" viewer={p.viewer} formToken={p.formToken}>
    {p.total === 0 ? (
      <p id="queue-empty">
        Nothing waits on you in the {environmentInWords(p.viewer.environment)} environment. New deals, accepted offers, payout accounts given and signed agreements appear here.{" "}
        <a href={`${PORTAL_ROUTE}/deals`}>See all deals</a>.
      </p>
    ) : (
      <p>
        {p.total} {p.total === 1 ? "deal waits" : "deals wait"} on you in the {environmentInWords(p.viewer.environment)} environment, the nearest to funding first.
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
                <a href={`${PORTAL_ROUTE}/deals/${d.ref}`}>{d.ref}</a>
                {d.test ? <span class="muted"> (test)</span> : null} — {orDash(d.business.name)}, {money(d.amount, d.currency)}, {LABELS.market(d.market)}. Last change {day(d.waiting_since)}.
              </li>
            ))}
          </ul>
        </section>
      ))}
  </PortalPage>
);
