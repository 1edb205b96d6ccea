/**
 * The leads list: the API's GET /leads (pageOfLeads, its signed keyset cursor
 * and its LeadQuery schema for the filters), newest first.
 */
import type { Hono } from "hono";
import { leadSummary } from "../../../domain/leads/view";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { MARKETS } from "../../../domain/reference/markets";
import { LEAD_STATES } from "../../../domain/reference/values";
import { Refusal } from "../../../lib/refusal";
import { queryPage } from "../../kit/form";
import { parseForm } from "../../kit/refusal";
import { pageOfLeads } from "../../../services/leads/leads";
import { LeadQuery } from "../../../api/shared/schemas/lead";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { FieldError, PortalPage } from "../layout";
import { environmentInWords, formatFor, LABELS } from "../../kit/format";
import { RecordTable } from "../../kit/table";
import { Copyable } from "../../kit/copy";
import { stateLabel } from "./lead-detail";

const PAGE_SIZE = 25;

type Filters = { state?: string; market?: string; q?: string };

/** A search longer than any name or reference is a mistake, said so rather than searched. */
const SEARCH_MAX = 100;
type Summary = ReturnType<typeof leadSummary>;

const listHref = (filters: Filters, cursor?: string | null) => {
  const query = new URLSearchParams();
  if (filters.state) query.set("state", filters.state);
  if (filters.market) query.set("market", filters.market);
  if (filters.q) query.set("q", filters.q);
  if (cursor) query.set("cursor", cursor);
  const text = query.toString();
  return `${PORTAL_ROUTE}/leads${text ? `?${text}` : ""}`;
};

function ListPage(props: { c: PortalContext; filters: Filters; leads: Summary[]; next: string | null; paged?: boolean; error?: { field: string; message: string } | null }) {
  const { c, filters, error } = props;
  const filtered = Boolean(filters.state || filters.market || filters.q);
  const described = (field: string) => (error?.field === field ? `${field}-error` : undefined);
  return (
    <PortalPage title="Leads" viewer={c.get("viewer")} formToken={c.get("formToken")} feedback={{ error: error ? { message: error.message, field: null } : null }}>
      <form method="get" action={`${PORTAL_ROUTE}/leads`} class="filters" role="search">
        <label for="filter-q">Business name or reference</label>
        <input
          type="text"
          id="filter-q"
          name="q"
          value={filters.q ?? ""}
          placeholder="Widgets or RF-7K3M9Q"
          autocomplete="off"
          aria-describedby={described("q")}
          aria-invalid={error?.field === "q" ? "true" : undefined}
        />
        <FieldError field="q" error={error} />
        <label for="filter-state">State</label>
        <select id="filter-state" name="state" aria-describedby={described("state")}>
          <option value="">Any state</option>
          {LEAD_STATES.map((s) => (
            <option value={s.value} selected={s.value === filters.state}>
              {s.label}
            </option>
          ))}
        </select>
        <FieldError field="state" error={error} />
        <label for="filter-market">Market</label>
        <select id="filter-market" name="market" aria-describedby={described("market")}>
          <option value="">Any market</option>
          {MARKETS.map((m) => (
            <option value={m.country} selected={m.country === filters.market}>
              {m.name}
            </option>
          ))}
        </select>
        <FieldError field="market" error={error} />
        <button type="submit">Search</button>
        {filtered ? (
          <a class="button" href={`${PORTAL_ROUTE}/leads`}>
            Clear filters
          </a>
        ) : null}
      </form>
      {error ? null : props.leads.length === 0 ? (
        <p>
          {filtered ? "No leads match this search" : props.paged ? "No older leads" : "No leads yet"} in the {environmentInWords(c.get("viewer").environment)} environment.
          {filtered ? " Check the spelling, or clear the filters to see every lead." : ""}
        </p>
      ) : (
        <RecordTable
          label="Leads"
          rows={props.leads}
          columns={[
            { header: "Lead", rowHeader: true, cell: (lead) => <Copyable value={lead.reference} anchor={`lead-${lead.id}`} what="the lead reference" /> },
            {
              header: "Business",
              cell: (lead) => (
                <a href={`${PORTAL_ROUTE}/leads/${lead.id}`} aria-label={`${lead.business.name ?? "Unnamed business"}: open lead ${lead.reference}`}>
                  <bdi>{lead.business.name ?? "Unnamed business"}</bdi>
                </a>
              ),
            },
            { header: "State", cell: (lead) => stateLabel(lead.state) },
            { header: "Market", cell: (lead) => LABELS.market(lead.country) },
            { header: "Opened", cell: (lead) => <time datetime={lead.created_at}>{formatFor(lead.country).time(lead.created_at)}</time> },
          ]}
        />
      )}
      {props.next || props.paged ? (
        <p class="pages">
          {props.paged ? (
            <a href={listHref(filters)} rel="first">
              Newest leads (first page)
            </a>
          ) : null}{" "}
          {props.next ? (
            <a href={listHref(filters, props.next)} rel="next">
              Older leads
            </a>
          ) : null}
        </p>
      ) : null}
    </PortalPage>
  );
}

export function registerLeadsListPage(portal: Hono<PortalEnv>) {
  const filtersOf = (c: PortalContext): Filters => {
    const raw = c.req.query();
    return { state: raw.state || undefined, market: raw.market || undefined, q: raw.q?.trim() || undefined };
  };
  portal.get(
    "/leads",
    queryPage<PortalContext>({
      // A filter the list does not know, or a cursor it did not issue: the list's own page says so beside the field, never "no leads".
      showAgain: (c, refusal) =>
        c.html(<ListPage c={c} filters={filtersOf(c)} leads={[]} next={null} paged={Boolean(c.req.query("cursor"))} error={{ field: refusal.field?.replace(/^query\./, "") ?? "cursor", message: refusal.message }} />, refusal.status),
      read: async (c) => {
        const filters = filtersOf(c);
        const raw = c.req.query();
        if (filters.q && filters.q.length > SEARCH_MAX) throw new Refusal("invalid_request", `Search with at most ${SEARCH_MAX} characters: part of the business name, or the lead's reference.`, { field: "q" });
        const { state, market, cursor, limit } = parseForm(LeadQuery, { ...filters, cursor: raw.cursor || undefined, limit: PAGE_SIZE }, "query");
        const page = await pageOfLeads(c.get("deps"), scopeOfViewer(c.get("viewer")), { state, country: market?.country, search: filters.q }, cursor, limit);
        return c.html(<ListPage c={c} filters={filters} leads={page.leads.map(leadSummary)} next={page.nextCursor} paged={Boolean(raw.cursor)} />);
      },
    }),
  );
}
