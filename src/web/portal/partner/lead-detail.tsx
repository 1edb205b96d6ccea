/**
 * One lead as GET /partner/v1/leads/{id} answers it (readLead: the same one-batch
 * read), shown for a person: state and timeline, the figures with their basis
 * beside the applicant's bands, register facts, documents and offers with an
 * accept button that calls the API's own acceptOffer.
 */
import { formatFor, LABELS } from "../../kit/format";
import { Copyable } from "../../kit/copy";
import { RecordTable } from "../../kit/table";
import type { Hono } from "hono";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { DOCUMENT_TYPES, LEAD_STATES, OFFER_DECLINE_REASONS } from "../../../domain/reference/values";
import { isNotFound } from "../../kit/refusal";
import { Refusal } from "../../../lib/refusal";
import { textOf } from "../../kit/form";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { acceptOffer, declineOffer } from "../../../services/leads/offers";
import { readLeadForPerson } from "../../../services/leads/presentation";
import { viewContext } from "../../../services/views/view-context";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { Confirm, ConfirmStart } from "../../kit/confirm";
import { FieldError, FormToken, PortalPage, RequiredMark, type PageFeedback } from "../layout";
import { portalForm } from "../form-action";
import { registerLeadActions, simulationsFor } from "./lead-actions";
import { registerPersonsPages } from "./persons";
import { hubLinkPath, registerHubLinkPages } from "./hub-link";
import { FormulaCellsWarning } from "../../kit/file-warnings";

type LeadView = Awaited<ReturnType<typeof readLeadForPerson>>;

const DONE: Record<string, string> = {
  created: "The lead was opened as a draft.",
  saved: "The draft was saved.",
  offer_declined: "The offer was declined for the client; its lender has been told.",
  submitted: "The lead was submitted. What happens next: the lenders on the panel look at it now; their offers appear on this page as they arrive (in the sandbox at once), and the lead.offers_available webhook tells your endpoints. A lender may ask the client for documents through the client's link.",
  accepted: "The offer was accepted. What happens next: the lender is told at once and contacts the client to collect the documents and the payout account, then sends the agreement to sign. The other offers are withdrawn.",
  document_accepted: "The document was uploaded and accepted.",
  document_rejected: "The document was uploaded but rejected: see the reason in the list below.",
  renewal: "This renewal was opened as a draft from the funded lead: check the figures, then submit it.",
  simulated_offers: "Sandbox: a fresh set of offers was simulated.",
  simulated_decline: "Sandbox: the lead was declined.",
  simulated_fund: "Sandbox: the lead was funded for the accepted offer's amount.",
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
  const asked = lead.registryLastAsked ? ` (last asked ${formatFor(lead.country).time(lead.registryLastAsked)})` : "";
  if (registry.status !== "available") return <p id="register-reason">The company register could not answer: {LABELS.registerReason(registry.reason)}{asked}.</p>;
  const facts: [string, unknown][] = [
    ["Registered name", registry.registered_name],
    ["Status", registry.company_status],
    ["Company type", registry.company_type],
    ["Incorporated on", formatFor(lead.country).date(registry.incorporated_on)],
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
      <RecordTable
        label="Offers"
        rows={lead.offers}
        // An offer that can no longer be taken (withdrawn, expired, accepted elsewhere) says so and is drawn muted.
        rowData={(offer) => ({ offer: offer.id })}
        inactive={(offer) => (offer.state === "presented" || offer.state === "accepted" ? null : offer.state === "declined" ? `Declined: ${offer.declined?.label ?? ""}` : LABELS.status(offer.state))}
        columns={[
          { header: "Offer", rowHeader: true, cell: (offer) => offer.label },
          { header: "Amount", cell: (offer) => money(offer.amount, offer.currency) },
          { header: "Terms", cell: (offer) => LABELS.status(offer.maturity) },
          { header: "Cost", cell: (offer) => (offer.annual_rate_pct !== null ? `${offer.annual_rate_pct}% a year` : offer.factor_rate !== null ? `Factor ${offer.factor_rate}` : "—") },
          { header: "Fees", cell: (offer) => money(offer.fees, offer.currency) },
          { header: "Total to repay", cell: (offer) => money(offer.total_repayment, offer.currency) },
          { header: "Term", cell: (offer) => (offer.term_months !== null ? `${offer.term_months} months` : "—") },
          { header: "Expires", cell: (offer) => (offer.expires_at ? f.time(offer.expires_at) : "No expiry given") },
          { header: "State", cell: (offer) => LABELS.status(offer.state) },
          {
            header: "Action",
            actions: true,
            cell: (offer) =>
              offer.state === "presented" ? <ConfirmStart href={acceptPath(lead.id, offer.id)} label={`Review and accept ${offer.label} for ${money(offer.amount, offer.currency)}`} /> : null,
          },
        ]}
      />
      {lead.all_offers_declined ? (
        <p data-all-offers-declined>The client declined every offer on this lead. A lender may still send new terms; they would appear here.</p>
      ) : null}
      <DeclineOffer c={c} lead={lead} />
    </>
  );
}

/**
 * The business's own "no", sent by the partner for the client (issue 41): one of the presented offers
 * and a reason from `offer-decline-reasons`, through the API's own declineOffer.
 */
function DeclineOffer({ c, lead }: { c: PortalContext; lead: LeadView }) {
  const presented = lead.offers.filter((o) => o.state === "presented");
  if (presented.length === 0) return null;
  const money = formatFor(lead.country).money;
  return (
    <form method="post" action={`${PORTAL_ROUTE}/leads/${encodeURIComponent(lead.id)}/offers/decline`} data-decline-offer>
      <h3>Decline an offer for the client</h3>
      <p class="muted">When the client does not want an offer: its lender is told, and the offer can no longer be accepted.</p>
      <FormToken token={c.get("formToken")} />
      <label for="decline-offer">Offer</label>
      <select id="decline-offer" name="offer_id">
        {presented.map((o) => (
          <option value={o.id}>{`${o.label}, ${money(o.amount, o.currency)}`}</option>
        ))}
      </select>
      <label for="reason_code">Why the client declines</label>
      <select id="reason_code" name="reason_code">
        {OFFER_DECLINE_REASONS.map((r) => (
          <option value={r.value}>{r.label}</option>
        ))}
      </select>
      <button type="submit">Decline the offer</button>
    </form>
  );
}

function Persons({ lead }: { lead: LeadView }) {
  const persons = lead.significant_persons;
  const total = persons.reduce((sum, p) => sum + (p.ownership_percent ?? 0), 0);
  const link = `${PORTAL_ROUTE}/leads/${encodeURIComponent(lead.id)}/persons`;
  return (
    <>
      <p>
        {persons.length === 0 ? (
          "None yet."
        ) : (
          <>
            {persons.map((p, i) => (
              <>
                {i > 0 ? ", " : ""}
                <bdi>{p.full_name}</bdi>
              </>
            ))}
            {`: ${Number(total.toFixed(4))}% of the business between them.`}
          </>
        )}
      </p>
      <p>
        <a href={link}>{lead.state === "draft" ? "Add or change significant persons" : "See the significant persons"}</a>
      </p>
    </>
  );
}

/** The bank-statement figure: the monthly revenue the matcher uses, with its basis (statements once one is read). */
function StatementFigure({ lead }: { lead: LeadView }) {
  const f = formatFor(lead.country);
  const { trading } = lead;
  if (!lead.statements.has_statements) {
    return <p class="muted">No bank statement has been read yet. Upload one as CSV or OFX and its monthly revenue replaces the applicant's figure.</p>;
  }
  return (
    <p id="statement-figure">
      Monthly revenue from the bank statement: <strong>{f.withBasis(f.money(trading.monthly_revenue, lead.currency), trading.monthly_revenue_basis)}</strong>
      {lead.statements.uploaded_at ? `, read from the statement uploaded ${f.time(lead.statements.uploaded_at)}` : ""}.
    </p>
  );
}

function Documents({ c, lead, error }: { c: PortalContext; lead: LeadView; error: string | null }) {
  const f = formatFor(lead.country);
  return (
    <>
      <StatementFigure lead={lead} />
      {lead.documents.length === 0 ? (
        <p>No documents yet.{lead.upload_url ? " The client can upload them through their link." : ""}</p>
      ) : (
        <RecordTable
          label="Documents"
          rows={lead.documents}
          inactive={(d) => (d.state === "rejected" ? "Rejected" : null)}
          columns={[
            {
              header: "File",
              rowHeader: true,
              cell: (d) => (
                <>
                  <bdi>{d.filename}</bdi>
                  <FormulaCellsWarning flagged={d.formula_cells} />
                </>
              ),
            },
            { header: "Type", cell: (d) => LABELS.documentType(d.document_type) },
            { header: "State", cell: (d) => (d.state === "rejected" ? `Rejected: ${LABELS.rejection(d.reason).toLowerCase()}` : "Accepted") },
            { header: "Received", cell: (d) => f.time(d.received_at) },
          ]}
        />
      )}
      <form method="post" action={`${PORTAL_ROUTE}/leads/${encodeURIComponent(lead.id)}/documents`} enctype="multipart/form-data" novalidate>
        <FormToken token={c.get("formToken")} />
        <div>
          <label for="f-document_type">
            Document type<RequiredMark />
          </label>
          <select id="f-document_type" name="document_type" required>
            {DOCUMENT_TYPES.map((t) => (
              <option value={t.value}>{t.label}</option>
            ))}
          </select>
        </div>
        <div>
          <label for="f-file">
            File<RequiredMark />
          </label>
          <input type="file" id="f-file" name="file" required aria-describedby={error ? "file-error" : undefined} aria-invalid={error ? "true" : undefined} autofocus={error ? true : undefined} />
          <small class="muted">PDF, PNG, JPEG, XLSX, or a bank statement as CSV or OFX.</small>
          <FieldError field="file" error={error ? { field: "file", message: error } : null} />
        </div>
        <button type="submit">Upload document</button>
      </form>
    </>
  );
}

function Renewal({ c, lead }: { c: PortalContext; lead: LeadView }) {
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

function Simulate({ c, lead }: { c: PortalContext; lead: LeadView }) {
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

const acceptPath = (leadId: string, offerId: string) => `${PORTAL_ROUTE}/leads/${encodeURIComponent(leadId)}/offers/${encodeURIComponent(offerId)}/accept`;

/** The review step before accepting on the client's behalf (as the hub's): every term of the offer, then the one button. */
function AcceptReviewPage({ c, lead, offer }: { c: PortalContext; lead: LeadView; offer: LeadView["offers"][number] }) {
  const f = formatFor(lead.country);
  const name = lead.business.name ?? "Unnamed business";
  const facts: [string, string][] = [
    ["Business", name],
    ["Lead", lead.reference],
    ["Offer", offer.label],
    ["Amount", f.money(offer.amount, offer.currency)],
    ["Kind", LABELS.status(offer.maturity)],
  ];
  if (offer.term_months !== null) facts.push(["Term", `${offer.term_months} months`]);
  if (offer.annual_rate_pct !== null) facts.push(["Annual rate", `${offer.annual_rate_pct}%`]);
  if (offer.factor_rate !== null) facts.push(["Factor rate", String(offer.factor_rate)]);
  if (offer.total_repayment !== null) facts.push(["Total to repay", f.money(offer.total_repayment, offer.currency)]);
  if (offer.expires_at) facts.push(["Expires", f.time(offer.expires_at)]);
  return (
    <PortalPage title={`Review the offer for ${name}`} viewer={c.get("viewer")} formToken={c.get("formToken")}>
      <Confirm
        question={`Accept ${offer.label} for ${f.money(offer.amount, offer.currency)} on ${name}'s behalf?`}
        facts={facts}
        consequence="Accepting tells the lender the client takes this offer; the lead's other offers are withdrawn. Accept only with the client's agreement."
        irreversible
        next="the lender contacts the client to collect the documents and the payout account, then sends the agreement to sign."
        action={acceptPath(lead.id, offer.id)}
        hidden={{ _form_token: c.get("formToken") }}
        confirmLabel={`Accept ${offer.label} for ${f.money(offer.amount, offer.currency)}`}
        cancelHref={`${PORTAL_ROUTE}/leads/${encodeURIComponent(lead.id)}#offers`}
        cancelLabel="Cancel, back to the lead"
      />
    </PortalPage>
  );
}

/** What each routed option's outcome is, in words (the API's `outcome` values). */
const OUTCOME_WORDS: Record<string, string> = {
  pending: "Not yet reviewed",
  in_review: "Being reviewed",
  offer_made: "Offer made",
  offer_accepted: "Offer accepted",
  declined: "Declined",
  funded: "Funded",
};

/**
 * What became of each option the lead was routed to, anonymised as the API's `outcomes`: the option's
 * number and product family, where it stands, and why it was declined in the list's words (with the
 * lender's note only when the lender shared it). No provider is named.
 */
function Outcomes({ lead }: { lead: LeadView }) {
  const outcomes = lead.outcomes ?? [];
  if (outcomes.length === 0) return null;
  const f = formatFor(lead.country);
  return (
    <section aria-labelledby="outcomes-heading" id="outcomes">
      <h2 id="outcomes-heading">What each option decided</h2>
      <ul>
        {outcomes.map((o) => (
          <li data-option={o.option} data-outcome={o.outcome}>
            <strong>{o.option}</strong> ({LABELS.productFamily(o.product_family)}): {OUTCOME_WORDS[o.outcome] ?? o.outcome}, <time datetime={o.at}>{f.time(o.at)}</time>
            {o.reasons.length > 0 ? (
              <ul>
                {o.reasons.map((r) => (
                  <li data-reason={r.code}>
                    {r.label}
                    {r.detail ? <>: “<bdi>{r.detail}</bdi>”</> : null}
                  </li>
                ))}
              </ul>
            ) : o.outcome === "declined" ? (
              <span class="muted"> (no reason given)</span>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

const moreOptions = (n: number) => `${n} more option${n === 1 ? "" : "s"}`;

/**
 * What would open more options (the API's `unlocks`, recomputed after each decline on the options still
 * open), in words: time trading as the months still to go when the lead holds its months, so a partner
 * reads "With 12 more months of trading: 1 more option". Nothing but the figure and a count.
 */
function Unlocks({ lead }: { lead: LeadView }) {
  const unlocks = lead.unlocks ?? [];
  if (unlocks.length === 0) return null;
  const f = formatFor(lead.country);
  const tib = lead.trading.tib_months;
  const line = (u: (typeof unlocks)[number]) => {
    const needed = Number(u.needed);
    switch (u.field) {
      case "funding.amount":
        return `Asking for ${f.money(needed, lead.currency)}`;
      case "trading.monthly_revenue":
        return `With monthly revenue of ${f.money(needed, lead.currency)}`;
      case "trading.tib_months":
        return tib !== null && needed > tib ? `With ${needed - tib} more months of trading (${needed} in all)` : `After ${needed} months of trading`;
      default:
        return `With a credit score band of ${LABELS.creditScoreBand(String(u.needed))}`;
    }
  };
  return (
    <section aria-labelledby="unlocks-heading" id="unlocks">
      <h2 id="unlocks-heading">What would open more options</h2>
      <ul>
        {unlocks.map((u) => (
          <li data-unlock={u.field} data-needed={String(u.needed)} data-added={String(u.options_added)}>
            {line(u)}: {moreOptions(u.options_added)}
          </li>
        ))}
      </ul>
    </section>
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
        · {LABELS.market(lead.country)} · {stateLabel(lead.state)}
        {lead.partner_reference ? (
          <>
            {" · your reference "}
            <bdi>{lead.partner_reference}</bdi>
          </>
        ) : (
          ""
        )}
      </p>
      <p class="reference-line">
        <span class="muted">Reference </span>
        <Copyable value={lead.reference} anchor="lead-reference" what="the lead reference" />
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
      <h2 id="offers">Offers</h2>
      <Offers c={c} lead={lead} />
      <Outcomes lead={lead} />
      <Unlocks lead={lead} />
      <h2>Figures</h2>
      <Figures lead={lead} />
      <h2>Company register</h2>
      <RegisterFacts lead={lead} />
      <h2>Significant persons</h2>
      <Persons lead={lead} />
      <h2 id="documents">Documents</h2>
      <Documents c={c} lead={lead} error={feedback?.error?.field === "file" ? feedback.error.message : null} />
      {lead.upload_url ? (
        <>
          <p>The client's upload link:</p>
          <p>
            <Copyable value={lead.upload_url} anchor="hub-link" what="the client's hub link" secret />
          </p>
          <p class="muted" id="hub-link-note">A new link ends this one at once (for a link sent to the wrong address, or one that leaked).</p>
          <ConfirmStart href={hubLinkPath(lead.id)} label="New hub link" describedBy="hub-link-note" />
        </>
      ) : null}
      <Renewal c={c} lead={lead} />
      <Simulate c={c} lead={lead} />
      <h2>Timeline</h2>
      <ol>
        {lead.timeline.map((entry) => (
          <li>
            <time datetime={entry.occurred_at}>{f.time(entry.occurred_at)}</time> {LABELS.event(entry.event)}
          </li>
        ))}
      </ol>
    </PortalPage>
  );
}

/** The lead in the viewer's organisation and environment, or null (another's, or none: the same 404). */
async function leadOfViewer(c: PortalContext, id: string) {
  try {
    return await readLeadForPerson(viewContext(c.env, { deps: c.get("deps") }), scopeOfViewer(c.get("viewer")), id);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** The lead page again with a refusal at its top; a lead the viewer cannot see is not_found, the portal's 404 page. */
async function leadPageWithError(c: PortalContext, id: string, error: { message: string; field: string | null }, status: ContentfulStatusCode) {
  const lead = await leadOfViewer(c, id);
  if (!lead) throw new Refusal("not_found", "No such lead.");
  return c.html(<LeadDetailPage c={c} lead={lead} feedback={{ error }} />, status);
}

/** An offer action (the portal's one form shape): audited about the offer in its batch; a refusal is the lead page again with it. */
const offerAction = (action: string, offerIdOf: (c: PortalContext, form: FormData) => string, act: (c: PortalContext, id: string, offerId: string, form: FormData) => Promise<string>) =>
  portalForm({
    audit: (c, form) => ({ action, target: offerIdOf(c, form) }),
    showAgain: (c, refusal) => leadPageWithError(c, c.req.param("id") ?? "", { message: refusal.message, field: null }, refusal.status),
    act: (c, form) => act(c, c.req.param("id") ?? "", offerIdOf(c, form), form),
  });

export function registerLeadDetailPages(portal: Hono<PortalEnv>) {
  registerPersonsPages(portal);
  registerHubLinkPages(portal);
  registerLeadActions(portal, leadPageWithError);
  portal.get("/leads/:id", async (c) => {
    const lead = await leadOfViewer(c, c.req.param("id"));
    if (!lead) throw new Refusal("not_found", "No such lead or offer.");
    return c.html(<LeadDetailPage c={c} lead={lead} feedback={{ notice: DONE[c.req.query("done") ?? ""] ?? null }} />);
  });

  portal.get("/leads/:id/offers/:offerId/accept", async (c) => {
    const lead = await leadOfViewer(c, c.req.param("id"));
    const offer = lead?.offers.find((o) => o.id === c.req.param("offerId"));
    if (!lead || !offer) throw new Refusal("not_found", "No such lead or offer.");
    if (offer.state !== "presented") return c.redirect(`${PORTAL_ROUTE}/leads/${encodeURIComponent(lead.id)}#offers`, 303);
    return c.html(<AcceptReviewPage c={c} lead={lead} offer={offer} />);
  });

  portal.post(
    "/leads/:id/offers/decline",
    offerAction(
      "offer.declined",
      (_c, form) => textOf(form, "offer_id"),
      async (c, id, offerId, form) => {
        await declineOffer(c.get("deps"), scopeOfViewer(c.get("viewer")), id, offerId, textOf(form, "reason_code"));
        return `${PORTAL_ROUTE}/leads/${encodeURIComponent(id)}?done=offer_declined#offers`;
      },
    ),
  );

  portal.post(
    "/leads/:id/offers/:offerId/accept",
    offerAction(
      "offer.accepted",
      (c) => c.req.param("offerId") ?? "",
      async (c, id, offerId) => {
        await acceptOffer(c.get("deps"), scopeOfViewer(c.get("viewer")), id, offerId);
        return `${PORTAL_ROUTE}/leads/${encodeURIComponent(id)}?done=accepted`;
      },
    ),
  );
}
