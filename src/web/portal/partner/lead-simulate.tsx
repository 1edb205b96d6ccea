/** What follows an outcome: the renewal of a funded lead, and a sandbox lead's simulate buttons. */
import { PORTAL_ROUTE, type PortalContext } from "../context";
import { FormToken } from "../layout";
import { simulationsFor } from "./lead-actions";
import type { LeadView } from "./lead-view";

export function Renewal({ c, lead }: { c: PortalContext; lead: LeadView }) {
  if (lead.state !== "funded" && !lead.renewal_of) return null;
  return (
    <>
      <h2>Renewal</h2>
      {lead.renewal_of ? (
        <p>
          This lead renews <a href={`${PORTAL_ROUTE}/leads/${encodeURIComponent(lead.renewal_of)}`}>an earlier funded lead</a>.
        </p>
      ) : null}
      {lead.state === "funded" ? (
        <form method="post" action={`${PORTAL_ROUTE}/leads/${encodeURIComponent(lead.id)}/renewals`}>
          <FormToken token={c.get("formToken")} />
          <p class="muted">Opens a new draft with what is still true of the business; nothing is sent until you submit it.</p>
          <button type="submit">Open a renewal</button>
        </form>
      ) : null}
    </>
  );
}

export function Simulate({ c, lead }: { c: PortalContext; lead: LeadView }) {
  if (lead.environment !== "sandbox") return null;
  const events = simulationsFor(lead.state);
  if (events.length === 0) return null;
  return (
    <section aria-labelledby="simulate">
      <h2 id="simulate">Sandbox: simulate</h2>
      <p class="muted">Move this sandbox lead as a funding provider would; the same events and webhooks fire as for a live lead.</p>
      <div class="actions">
        {events.map((e) => (
          <form method="post" action={`${PORTAL_ROUTE}/leads/${encodeURIComponent(lead.id)}/simulate`} class="inline">
            <FormToken token={c.get("formToken")} />
            <input type="hidden" name="event" value={e.event} />
            <button type="submit">{e.label}</button>
          </form>
        ))}
      </div>
    </section>
  );
}
