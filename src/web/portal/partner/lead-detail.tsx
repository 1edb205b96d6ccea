/**
 * One lead as GET /partner/v1/leads/{id} answers it (readLead: the same one-batch
 * read), shown for a person: state and timeline, the figures with their basis
 * beside the applicant's bands, register facts, documents and offers with an
 * accept button that calls the API's own acceptOffer.
 */
import { formatFor, LABELS } from "../../kit/format";
import type { Hono } from "hono";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { LEAD_STATES } from "../../../domain/reference/values";
import { isNotFound, refusalForPage } from "../../kit/refusal";
import { acceptOffer } from "../../../services/leads/offers";
import { readLead } from "../../../services/leads/presentation";
import { recordPortalAction } from "../../../services/portal/audit";
import { viewContext } from "../../../services/views/view-context";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { FormToken, PortalPage, type PageFeedback } from "../layout";
import { notFoundPage } from "../refused-page";

type LeadView = Awaited<ReturnType<typeof readLead>>;

const DONE: Record<string, string> = {
  created: "The lead was opened as a draft.",
  saved: "The draft was saved.",
  submitted: "The lead was submitted.",
  accepted: "The offer was accepted.",
};

export const stateLabel = (state: string) => LEAD_STATES.find((s) => s.value === state)?.label ?? state;
const shown = (value: unknown) => (value === null || value === undefined || value === "" ? "—" : String(value));

function Figures({ lead }: { lead: LeadView }) {
  const { funding, trading, currency } = lead;
  const f = formatFor(lead.country);
  const rows: [string, string, string][] = [
    ["Amount", f.withBasis(f.money(funding.amount, currency), funding.amount_basis), f.amountBand(funding.amount_band, currency)],
    ["Monthly revenue", f.withBasis(f.money(trading.monthly_revenue, currency), trading.monthly_revenue_basis), f.revenueBand(trading.monthly_revenue_band, currency)],
    ["Annual turnover", f.withBasis(f.money(trading.annual_turnover, currency), trading.annual_turnover_basis), "—"],
    ["Months trading", f.withBasis(shown(trading.tib_months), trading.tib_months_basis), LABELS.timeInBusinessBand(trading.time_in_business_band)],
  ];
  if (trading.credit_score_band !== undefined) rows.push(["Credit score", "—", LABELS.creditScoreBand(trading.credit_score_band)]);
  return (
    <div class="table-wrap">
      <table>
        <caption class="muted">The figure matched on, with where it comes from, and the band the applicant gave.</caption>
        <thead>
          <tr>
            <th scope="col">Figure</th>
            <th scope="col">Value and basis</th>
            <th scope="col">Applicant's band</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([name, value, band]) => (
            <tr>
              <th scope="row">{name}</th>
              <td>{value}</td>
              <td>{band}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function RegisterFacts({ lead }: { lead: LeadView }) {
  const registry = lead.business.registry;
  if (!registry) return <p>The company register has not been asked yet (no company number, or the answer is on its way).</p>;
  if (registry.status !== "available") return <p>The company register could not answer: {registry.reason.replace(/_/g, " ")}.</p>;
  const facts: [string, unknown][] = [
    ["Registered name", registry.registered_name],
    ["Status", registry.company_status],
    ["Company type", registry.company_type],
    ["Incorporated on", registry.incorporated_on],
    ["Company age (months)", registry.company_age_months],
    ["Industry codes", Array.isArray(registry.sic_codes) ? registry.sic_codes.join(", ") : null],
    ["Directors", Array.isArray(registry.directors) ? registry.directors.length : null],
    ["Insolvency history", registry.has_insolvency_history === null || registry.has_insolvency_history === undefined ? null : registry.has_insolvency_history ? "yes" : "no"],
  ];
  return (
    <dl>
      {facts.map(([name, value]) => (
        <>
          <dt>{name}</dt>
          <dd>{shown(value)}</dd>
        </>
      ))}
    </dl>
  );
}

function Offers({ c, lead }: { c: PortalContext; lead: LeadView }) {
  const f = formatFor(lead.country);
  const money = f.money;
  if (!lead.submitted_at) return <p>Offers appear here once the lead is submitted and matched.</p>;
  if (lead.offers.length === 0) return <p>No offers yet.</p>;
  return (
    <>
      {lead.environment === "sandbox" ? <p class="muted">Sandbox: these offers are simulated from the panel's price ranges; no funding provider saw this lead.</p> : null}
      <ul class="offers">
        {lead.offers.map((offer) => (
          <li>
            <strong>{offer.label}</strong> — {money(offer.amount, offer.currency)}, {LABELS.status(offer.maturity).toLowerCase()}
            {offer.term_months !== null ? `, ${offer.term_months} months` : ""}
            {offer.annual_rate_pct !== null ? `, ${offer.annual_rate_pct}% a year` : ""}
            {offer.factor_rate !== null ? `, factor ${offer.factor_rate}` : ""}
            {offer.total_repayment !== null ? `, repay ${money(offer.total_repayment, offer.currency)}` : ""}. State: {LABELS.status(offer.state).toLowerCase()}
            {offer.expires_at ? `, expires ${f.time(offer.expires_at)}` : ""}.
            {offer.state === "presented" ? (
              <form method="post" action={`${PORTAL_ROUTE}/leads/${lead.id}/offers/${encodeURIComponent(offer.id)}/accept`}>
                <FormToken token={c.get("formToken")} />
                <button type="submit">{`Accept ${offer.label} for ${money(offer.amount, offer.currency)}`}</button>
              </form>
            ) : null}
          </li>
        ))}
      </ul>
    </>
  );
}

export function LeadDetailPage({ c, lead, feedback }: { c: PortalContext; lead: LeadView; feedback?: PageFeedback }) {
  const f = formatFor(lead.country);
  const name = lead.business.name ?? "Unnamed business";
  return (
    <PortalPage title={`Lead ${lead.reference}`} viewer={c.get("viewer")} formToken={c.get("formToken")} feedback={feedback}>
      <p>
        <strong>
          <bdi>{name}</bdi>
        </strong>{" "}
        · {lead.country} · {stateLabel(lead.state)}
        {lead.partner_reference ? ` · your reference ${lead.partner_reference}` : ""}
      </p>
      {lead.state === "draft" ? (
        <>
          <p>
            <a href={`${PORTAL_ROUTE}/leads/${lead.id}/edit`}>Fill in the draft</a>
          </p>
          <form method="post" action={`${PORTAL_ROUTE}/leads/${lead.id}/submit`}>
            <FormToken token={c.get("formToken")} />
            <button type="submit">Submit for matching</button>
          </form>
        </>
      ) : null}
      {lead.out_of_scope_reasons && lead.out_of_scope_reasons.length > 0 ? (
        <ul>
          {lead.out_of_scope_reasons.map((r) => (
            <li>{r.detail}</li>
          ))}
        </ul>
      ) : null}
      <h2>Offers</h2>
      <Offers c={c} lead={lead} />
      <h2>Figures</h2>
      <Figures lead={lead} />
      <h2>Company register</h2>
      <RegisterFacts lead={lead} />
      <h2>Documents</h2>
      {lead.documents.length === 0 ? (
        <p>No documents yet.{lead.upload_url ? " The client can upload them through their link." : ""}</p>
      ) : (
        <ul>
          {lead.documents.map((d) => (
            <li>
              {d.filename} ({LABELS.documentType(d.document_type)}, {d.state === "rejected" ? `rejected: ${LABELS.rejection(d.reason).toLowerCase()}` : "accepted"}), received {f.time(d.received_at)}
            </li>
          ))}
        </ul>
      )}
      {lead.upload_url ? (
        <>
          <p>The client's upload link:</p>
          <p class="secret">{lead.upload_url}</p>
        </>
      ) : null}
      <h2>Timeline</h2>
      <ol>
        {lead.timeline.map((entry) => (
          <li>
            <time datetime={entry.occurred_at}>{f.time(entry.occurred_at)}</time> {entry.event}
          </li>
        ))}
      </ol>
    </PortalPage>
  );
}

/** The lead in the viewer's organisation and environment, or null (another's, or none: the same 404). */
async function leadOfViewer(c: PortalContext, id: string) {
  try {
    return await readLead(viewContext(c.env, { db: c.get("db") }), scopeOfViewer(c.get("viewer")), id);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

export function registerLeadDetailPages(portal: Hono<PortalEnv>) {
  portal.get("/leads/:id", async (c) => {
    const lead = await leadOfViewer(c, c.req.param("id"));
    if (!lead) return c.html(notFoundPage(), 404);
    return c.html(<LeadDetailPage c={c} lead={lead} feedback={{ notice: DONE[c.req.query("done") ?? ""] ?? null }} />);
  });

  portal.post("/leads/:id/offers/:offerId/accept", async (c) => {
    const viewer = c.get("viewer");
    const { id, offerId } = c.req.param();
    try {
      await acceptOffer(c.get("db"), scopeOfViewer(viewer), id, offerId);
    } catch (error) {
      if (isNotFound(error)) return c.html(notFoundPage(), 404);
      const refusal = refusalForPage(error);
      const lead = await leadOfViewer(c, id);
      if (!lead) return c.html(notFoundPage(), 404);
      return c.html(<LeadDetailPage c={c} lead={lead} feedback={{ error: { message: refusal.message, field: null } }} />, refusal.status);
    }
    await recordPortalAction(c.get("db"), viewer, "offer.accepted", offerId);
    return c.redirect(`${PORTAL_ROUTE}/leads/${encodeURIComponent(id)}?done=accepted`, 303);
  });
}
