/**
 * The event log for partners and lenders alike: the API's GET /events
 * (pageOfEvents over the viewer's organisation, environment and API, its
 * signed cursor, and the route's own query schema for the filters).
 */
import type { Hono } from "hono";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { eventsOf } from "../../../domain/webhooks/subscriptions";
import { queryPage } from "../../kit/form";
import { parseForm } from "../../kit/refusal";
import { environmentInWords, formatFor, LABELS } from "../../kit/format";
import { namesOfSubjects, pageOfEvents, requireEventSubject, type SubjectName } from "../../../services/webhooks/event-feed";
import { RecordTable } from "../../kit/table";
import { viewContext } from "../../../services/views/view-context";
import { EventsQuery } from "../../../api/shared/schemas/webhooks";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { FieldError, PortalPage } from "../layout";

const PAGE_SIZE = 25;

type Filters = { event?: string; subject?: string };
type EventPage = Awaited<ReturnType<typeof pageOfEvents>>;

const eventsHref = (filters: Filters, cursor: string) => {
  const query = new URLSearchParams();
  if (filters.event) query.set("event", filters.event);
  if (filters.subject) query.set("subject", filters.subject);
  query.set("cursor", cursor);
  return `${PORTAL_ROUTE}/events?${query}`;
};

/** Where an event's subject is shown in the portal: a partner's lead page; deals belong to the lender pages. */
const subjectHref = (kind: "partner" | "lender", subject: { type: string; id: string }) =>
  kind === "partner" && subject.type === "lead" ? `${PORTAL_ROUTE}/leads/${subject.id}` : kind === "lender" && subject.type === "deal" ? `${PORTAL_ROUTE}/deals/${subject.id}` : null;

/** Subject kinds in words, for a subject that is not the viewer's to name. */
const SUBJECT_KINDS: Record<string, string> = { lead: "A lead", deal: "A deal", referral: "A referral" };

/**
 * An event's subject as a person reads it, not as a raw id: the business's name and the reference they
 * know (`RF-…`, `DL-…`), linked to its page; never `lead <id>`.
 */
const Subject = (props: { kind: "partner" | "lender"; subject: { type: string; id: string }; name: SubjectName | undefined }) => {
  const { name } = props;
  // A deleted test deal's events outlive it: its reference is still what the lender knows it by.
  if (!name && props.subject.type === "deal") return <span class="reference">{props.subject.id}</span>;
  if (!name) return <span class="muted">{SUBJECT_KINDS[props.subject.type] ?? "A record"} no longer shown here</span>;
  const href = subjectHref(props.kind, props.subject);
  const label = (
    <>
      <bdi>{name.businessName ?? "Business not named yet"}</bdi> <span class="reference">{name.reference}</span>
    </>
  );
  return href ? <a href={href}>{label}</a> : label;
};

function EventsPage(props: { c: PortalContext; filters: Filters; page: EventPage; names?: Map<string, SubjectName>; error?: { field: string; message: string } | null }) {
  const { c, filters, page, error } = props;
  const names = props.names ?? new Map<string, SubjectName>();
  const viewer = c.get("viewer");
  const described = (field: string) => (error?.field === field ? `${field}-error` : undefined);
  return (
    <PortalPage title="Events" viewer={viewer} formToken={c.get("formToken")} feedback={{ error: error ? { message: error.message, field: null } : null }}>
      <p class="muted">Every event sent (or about to be sent) to your webhooks in the {environmentInWords(viewer.environment)} environment, newest first; kept 90 days.</p>
      <form method="get" action={`${PORTAL_ROUTE}/events`}>
        <label for="filter-event">Event</label>
        <select id="filter-event" name="event" aria-describedby={described("event")}>
          <option value="">Any event</option>
          {eventsOf(viewer.organisationKind).map((name) => (
            <option value={name} selected={name === filters.event}>
              {name}
            </option>
          ))}
        </select>
        <FieldError field="event" error={error} />
        <label for="filter-subject">{viewer.organisationKind === "lender" ? "Deal reference (DL-…) or referral id" : "Lead reference (RF-…) or id"}</label>
        <input type="text" id="filter-subject" name="subject" value={filters.subject ?? ""} aria-describedby={described("subject")} />
        <FieldError field="subject" error={error} />
        <button type="submit">Filter</button>
      </form>
      {error ? null : page.events.length === 0 ? (
        <p>No events{filters.event || filters.subject ? " match these filters" : " yet"}.</p>
      ) : (
        <RecordTable
          label="Events"
          rows={page.events}
          columns={[
            { header: "When", cell: (e) => <time datetime={e.created_at}>{formatFor(null).time(e.created_at)}</time> },
            {
              header: "Event",
              rowHeader: true,
              cell: (e) => (
                <details>
                  <summary>
                    {LABELS.event(e.event)} <code>{e.event}</code>
                  </summary>
                  <pre class="payload">{JSON.stringify(e.data, null, 2)}</pre>
                </details>
              ),
            },
            { header: "Subject", cell: (e) => <Subject kind={viewer.organisationKind} subject={e.subject} name={names.get(`${e.subject.type}:${e.subject.id}`)} /> },
          ]}
        />
      )}
      {page.next_cursor ? (
        <p>
          <a href={eventsHref(filters, page.next_cursor)} rel="next">
            Older events
          </a>
        </p>
      ) : null}
    </PortalPage>
  );
}

export function registerEventsPage(portal: Hono<PortalEnv>) {
  const filtersOf = (c: PortalContext): Filters => {
    const raw = c.req.query();
    return { event: raw.event || undefined, subject: raw.subject?.trim() || undefined };
  };
  portal.get(
    "/events",
    queryPage<PortalContext>({
      // An event the feed does not have, a subject not the viewer's, a cursor it did not issue: said beside the field, not shown as an empty log.
      showAgain: (c, refusal) =>
        c.html(<EventsPage c={c} filters={filtersOf(c)} page={{ events: [], next_cursor: null }} error={{ field: refusal.field?.replace(/^query\./, "") ?? "cursor", message: refusal.message }} />, refusal.status),
      read: async (c) => {
        const viewer = c.get("viewer");
        const api = viewer.organisationKind;
        const filters = filtersOf(c);
        const { event, subject, cursor, limit } = parseForm(EventsQuery(api), { ...filters, cursor: c.req.query("cursor") || undefined, limit: PAGE_SIZE }, "query");
        const ctx = viewContext(c.env, { deps: c.get("deps") });
        // The reference or id a person typed, checked against what they own: a wrong one is said so, not shown as an empty log.
        const stored = subject ? await requireEventSubject(ctx, scopeOfViewer(viewer), api, subject) : undefined;
        const page = await pageOfEvents(ctx, scopeOfViewer(viewer), api, { event, subject: stored }, cursor, limit);
        const names = await namesOfSubjects(ctx, scopeOfViewer(viewer), page.events.map((e) => e.subject));
        return c.html(<EventsPage c={c} filters={filters} page={page} names={names} />);
      },
    }),
  );
}
