/**
 * The application as the client gave it, as a summary list (GOV.UK's pattern): the lead page's
 * "Application" section, and the "Check your answers" page that is the only way to submit a draft
 * (docs/portal.md, "Check your answers"). Each answer of a draft has a "Change" link to its input.
 */
import type { Child } from "hono/jsx";
import { fileNameInWords, formatFor, LABELS } from "../../kit/format";
import { missingForSubmit } from "../../../domain/leads/submission";
import type { Lead } from "../../../domain/leads/types";
import { marketFor } from "../../../domain/reference/markets";
import { PORTAL_ROUTE, type PortalContext } from "../context";
import { FormToken, PortalPage, type PageFeedback } from "../layout";
import { LEAD_FORM_FIELDS } from "./lead-form-fields";
import { leadPath, type LeadView } from "./lead-view";

/** One answer: what it is, what the lead holds, and where it is changed (an input of the edit form, or another page). */
export interface Answer {
  key: string;
  value: Child;
  change?: string;
}

const none = <span class="muted">Not given</span>;
const text = (value: string | null | undefined): Child => (value ? <bdi>{value}</bdi> : none);
const yesNo = (value: boolean | null | undefined) => (value === true ? "Yes" : value === false ? "No" : none);

/** The edit form's input for a field path: its label and the anchor the "Change" link opens at. */
const inputAnchor = (id: string, field: string) => `${leadPath(id)}/edit#f-${field.replace(/\./g, "-")}`;
const labelOf = (field: string) => LEAD_FORM_FIELDS.find((f) => f.name === field)?.label ?? field;

/** A summary list; `changeable` adds each answer's "Change" link (named for a screen reader by its answer). */
function SummaryList(props: { answers: Answer[]; changeable: boolean; label: string }) {
  return (
    <dl class="summary-list" aria-label={props.label}>
      {props.answers.map((a) => (
        <div class="summary-row">
          <dt>{a.key}</dt>
          <dd>{a.value}</dd>
          {props.changeable && a.change ? (
            <dd class="summary-change">
              <a href={a.change}>
                Change<span class="visually-hidden"> {a.key.toLowerCase()}</span>
              </a>
            </dd>
          ) : null}
        </div>
      ))}
    </dl>
  );
}

const contactName = (lead: LeadView) => [lead.contact.first_name, lead.contact.last_name].filter(Boolean).join(" ") || null;

/** The lead page's "Application": who applied, how to reach them, the company, the purpose and the consent. */
function applicationAnswers(lead: LeadView): Answer[] {
  const at = (field: string) => inputAnchor(lead.id, field);
  const answers: Answer[] = [
    { key: "Contact name", value: text(contactName(lead)), change: at("contact.first_name") },
    { key: "Email", value: text(lead.contact.email), change: at("contact.email") },
    { key: "Phone", value: text(lead.contact.phone), change: at("contact.phone") },
  ];
  if ("company_number" in lead.business) answers.push({ key: "Company number", value: text(lead.business.company_number ?? null), change: at("business.company_number") });
  if (lead.business.vat) answers.push({ key: "VAT number", value: text(lead.business.vat.number ?? null), change: at("business.vat.number") });
  answers.push(
    { key: "Purpose", value: lead.funding.purpose ? LABELS.purpose(lead.funding.purpose) : none, change: at("funding.purpose") },
    { key: "Consent", value: consentWords(lead), change: at("consent.obtained") },
  );
  return answers;
}

function consentWords(lead: LeadView): Child {
  const { obtained, obtained_at, soft_credit_search } = lead.consent;
  if (obtained !== true) return "Not recorded: the client's consent is needed before the lead reaches a lender";
  const when = obtained_at ? ` on ${formatFor(lead.country).time(obtained_at)}` : "";
  return `Given${when}${soft_credit_search ? ", with a soft credit search" : ", without a soft credit search"}`;
}

export function ApplicationSection({ lead }: { lead: LeadView }) {
  return (
    <section aria-labelledby="application-heading" id="application">
      <h2 id="application-heading">Application</h2>
      <SummaryList answers={applicationAnswers(lead)} changeable={lead.state === "draft"} label="Application" />
    </section>
  );
}

/** What the check page still asks for: the market's mandatory fields (submit refuses without them) and the API's unfinished `steps`. */
function stillMissing(lead: Lead, view: LeadView) {
  const mandatory = missingForSubmit(lead, marketFor(lead.country)).map((field) => ({ field, label: labelOf(field), change: inputAnchor(lead.id, field) }));
  const steps: { step: string; words: string; change: string }[] = [];
  if (!view.business.name) steps.push({ step: "business_name", words: "The business's name", change: inputAnchor(lead.id, "business.name") });
  if (!view.steps.significant_persons_complete)
    steps.push({ step: "significant_persons", words: "Significant persons: none yet. The lenders see none, and persons cannot be added once the lead is submitted", change: `${leadPath(lead.id)}/persons` });
  if (!view.steps.documents_complete)
    steps.push({ step: "documents", words: "Documents: none yet. They can still be uploaded after submitting, until a lender has decided", change: `${leadPath(lead.id)}#documents` });
  return { mandatory, steps };
}

/**
 * "Check your answers": every answer of the draft with its "Change" link, the significant persons, the
 * documents and what is still missing, then the one submit button (absent while a mandatory field is
 * missing, which submit would refuse). The form carries the version checked: a draft changed since is
 * not submitted but shown again (docs/portal.md).
 */
export function CheckAnswersPage({ c, lead, view, feedback }: { c: PortalContext; lead: Lead; view: LeadView; feedback?: PageFeedback }) {
  const f = formatFor(view.country);
  const at = (field: string) => inputAnchor(lead.id, field);
  const business: Answer[] = [
    { key: "Business name", value: text(view.business.name), change: at("business.name") },
    ...("company_number" in view.business ? [{ key: "Company number", value: text(view.business.company_number ?? null), change: at("business.company_number") }] : []),
    { key: "Entity type", value: view.business.entity_type ? LABELS.entityType(view.country, view.business.entity_type) : none, change: at("business.entity_type") },
    { key: "Industry", value: view.business.industry ? LABELS.industry(view.business.industry) : none, change: at("business.industry") },
    ...(view.business.vat ? [{ key: "VAT number", value: text(view.business.vat.number ?? null), change: at("business.vat.number") }] : []),
    { key: "Market", value: LABELS.market(view.country), change: at("country") },
  ];
  const contact: Answer[] = [
    { key: "Contact name", value: text(contactName(view)), change: at("contact.first_name") },
    { key: "Email", value: text(view.contact.email), change: at("contact.email") },
    { key: "Phone", value: text(view.contact.phone), change: at("contact.phone") },
  ];
  const held = lead.trading ?? {};
  const funding: Answer[] = [
    { key: "Amount", value: lead.funding?.amount != null ? f.money(lead.funding.amount, view.currency) : lead.funding?.amount_band ? f.amountBand(lead.funding.amount_band, view.currency) : none, change: at("funding.amount") },
    { key: "Purpose", value: view.funding.purpose ? LABELS.purpose(view.funding.purpose) : none, change: at("funding.purpose") },
    { key: "Product family", value: view.funding.product_family ? LABELS.productFamily(view.funding.product_family) : "Any", change: at("funding.product_family") },
    { key: "Monthly revenue", value: held.monthly_revenue != null ? f.money(held.monthly_revenue, view.currency) : held.monthly_revenue_band ? f.revenueBand(held.monthly_revenue_band, view.currency) : none, change: at("trading.monthly_revenue") },
    { key: "Months trading", value: held.tib_months != null ? String(held.tib_months) : held.time_in_business_band ? LABELS.timeInBusinessBand(held.time_in_business_band) : none, change: at("trading.tib_months") },
    { key: "Consent", value: consentWords(view), change: at("consent.obtained") },
  ];
  const persons: Answer[] = view.significant_persons.map((p) => ({
    key: p.full_name ?? "Unnamed person",
    value: p.ownership_percent != null ? `Owns ${p.ownership_percent}%` : "Ownership not given",
    change: `${leadPath(lead.id)}/persons`,
  }));
  const documents: Answer[] = view.documents.map((d) => ({
    key: LABELS.documentType(d.document_type),
    value: (
      <>
        <bdi>{fileNameInWords(d.filename)}</bdi>
        {d.state === "rejected" ? ` (rejected: ${LABELS.rejection(d.reason).toLowerCase()})` : ""}
      </>
    ),
    change: `${leadPath(lead.id)}#documents`,
  }));
  const missing = stillMissing(lead, view);
  return (
    <PortalPage title="Check your answers before submitting" viewer={c.get("viewer")} formToken={c.get("formToken")} feedback={feedback}>
      <p>
        <a href={leadPath(lead.id)}>Back to the lead</a>
      </p>
      <h2>Business</h2>
      <SummaryList answers={business} changeable label="Business" />
      <h2>Contact</h2>
      <SummaryList answers={contact} changeable label="Contact" />
      <h2>Funding and trading</h2>
      <SummaryList answers={funding} changeable label="Funding and trading" />
      <h2 id="check-persons">Significant persons</h2>
      {persons.length > 0 ? <SummaryList answers={persons} changeable label="Significant persons" /> : <p>None yet.</p>}
      <p>
        <a href={`${leadPath(lead.id)}/persons`}>Add or change significant persons</a>
      </p>
      <h2 id="check-documents">Documents</h2>
      {documents.length > 0 ? <SummaryList answers={documents} changeable={false} label="Documents" /> : <p>None yet.</p>}
      <p>
        <a href={`${leadPath(lead.id)}#documents`}>Upload a document</a>
      </p>
      <h2 id="still-missing">Still missing</h2>
      {missing.mandatory.length === 0 && missing.steps.length === 0 ? (
        <p data-missing="none">Nothing: the application is complete.</p>
      ) : (
        <ul>
          {missing.mandatory.map((m) => (
            <li data-missing={m.field}>
              <strong>{m.label}</strong>: needed to submit in {LABELS.market(view.country)}. <a href={m.change}>Add it<span class="visually-hidden"> ({m.label.toLowerCase()})</span></a>
            </li>
          ))}
          {missing.steps.map((s) => (
            <li data-missing={s.step}>
              {s.words}. <a href={s.change}>Add them<span class="visually-hidden"> ({s.step.replace(/_/g, " ")})</span></a>
            </li>
          ))}
        </ul>
      )}
      <h2>Submit the application</h2>
      {missing.mandatory.length > 0 ? (
        <p data-cannot-submit>The lead cannot be submitted until the answers marked as needed above are given.</p>
      ) : (
        <form method="post" action={`${leadPath(lead.id)}/submit`}>
          <FormToken token={c.get("formToken")} />
          <input type="hidden" name="version" value={String(lead.version)} />
          <p>
            {view.environment === "sandbox"
              ? "Submitting matches the lead on the sandbox panel; no funding provider sees it."
              : "Submitting sends these answers to the funding providers the lead matches. The answers above can no longer be changed after that."}
          </p>
          <button type="submit">Submit the application</button>
        </form>
      )}
    </PortalPage>
  );
}

export const checkPath = (id: string) => `${PORTAL_ROUTE}/leads/${encodeURIComponent(id)}/check`;
