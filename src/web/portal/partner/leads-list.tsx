/**
 * The leads list: the API's GET /leads (pageOfLeads, its signed keyset cursor
 * and its LeadQuery schema for the filters), newest first.
 */
import type { Hono } from "hono";
import { leadSummary } from "../../../domain/leads/view";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { MARKETS } from "../../../domain/reference/markets";
import { LEAD_STATES } from "../../../domain/reference/values";
import { isRefusal } from "../../../lib/refusal";
import { signingSecretOf } from "../../../lib/signing-secret";
import { messagesOf } from "../../kit/messages";
import { pageOfLeads } from "../../../services/leads/leads";
import { LeadQuery } from "../../../api/shared/schemas/lead";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { FieldError, PortalPage } from "../layout";
import { stateLabel } from "./lead-detail";

const PAGE_SIZE = 25;

type Filters = { state?: string; market?: string };
type Summary = ReturnType<typeof leadSummary>;

const listHref = (filters: Filters, cursor?: string | null) => {
  const query = new URLSearchParams();
  if (filters.state) query.set("state", filters.state);
  if (filters.market) query.set("market", filters.market);
  if (cursor) query.set("cursor", cursor);
  const text = query.toString();
  return `${PORTAL_ROUTE}/leads${text ? `?${text}` : ""}`;
};

function ListPage(props: { c: PortalContext; filters: Filters; leads: Summary[]; next: string | null; error?: { field: string; message: string } | null }) {
  const { c, filters, error } = props;
  const described = (field: string) => (error?.field === field ? `${field}-error` : undefined);
  return (
    <PortalPage title="Leads" viewer={c.get("viewer")} formToken={c.get("formToken")} feedback={{ error: error ? { message: error.message, field: null } : null }}>
      <form method="get" action={`${PORTAL_ROUTE}/leads`} class="filters">
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
        <button type="submit">Filter</button>
      </form>
      {props.leads.length === 0 ? (
        <p>No leads {filters.state || filters.market ? "match these filters" : "yet"} in the {c.get("viewer").environment} environment.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Lead</th>
                <th scope="col">Business</th>
                <th scope="col">State</th>
                <th scope="col">Market</th>
                <th scope="col">Opened</th>
              </tr>
            </thead>
            <tbody>
              {props.leads.map((lead) => (
                <tr>
                  <td>
                    <a href={`${PORTAL_ROUTE}/leads/${lead.id}`}>{lead.reference}</a>
                  </td>
                  <td>
                    <bdi>{lead.business.name ?? "—"}</bdi>
                  </td>
                  <td>{stateLabel(lead.state)}</td>
                  <td>{lead.country}</td>
                  <td>
                    <time datetime={lead.created_at}>{lead.created_at.slice(0, 10)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {props.next ? (
        <p>
          <a href={listHref(filters, props.next)} rel="next">
            Older leads
          </a>
        </p>
      ) : null}
    </PortalPage>
  );
}

export function registerLeadsListPage(portal: Hono<PortalEnv>) {
  portal.get("/leads", async (c) => {
    const raw = c.req.query();
    const filters: Filters = { state: raw.state || undefined, market: raw.market || undefined };
    const refuse = (field: string, message: string) => c.html(<ListPage c={c} filters={filters} leads={[]} next={null} error={{ field, message }} />, 400);
    const parsed = LeadQuery.safeParse({ ...filters, cursor: raw.cursor || undefined, limit: PAGE_SIZE });
    if (!parsed.success) {
      const [first] = messagesOf(parsed.error);
      return refuse(first.field ?? "cursor", first.message);
    }
    const { state, market, cursor, limit } = parsed.data;
    try {
      const page = await pageOfLeads(c.get("db"), scopeOfViewer(c.get("viewer")), { state, country: market?.country }, cursor, limit, signingSecretOf(c.env));
      return c.html(<ListPage c={c} filters={filters} leads={page.leads.map(leadSummary)} next={page.nextCursor} />);
    } catch (error) {
      if (isRefusal(error, "invalid_request")) return refuse(error.field ?? "cursor", messagesOf({ code: error.code, detail: error.detail, field: error.field ?? "cursor" })[0].message);
      throw error;
    }
  });
}
