/**
 * One lead as GET /partner/v1/leads/{id} answers it (readLead: the same one-batch
 * read), shown for a person: state and timeline, the figures with their basis
 * beside the applicant's bands, register facts, documents and offers with an
 * accept button that calls the API's own acceptOffer. Each part is its own file
 * (lead-facts, lead-offers, lead-documents, lead-simulate), as the lender's deal page.
 */
import { formatFor, LABELS } from "../../kit/format";
import { Copyable } from "../../kit/copy";
import { PORTAL_ROUTE, type PortalContext } from "../context";
import { PortalPage, type PageFeedback } from "../layout";
import { ApplicationSection, checkPath } from "./lead-application";
import type { OptionNeeds } from "../../../domain/portal/partner-waiting";
import { LenderNeedsSection } from "./lead-needs";
import { Documents, HubLink } from "./lead-documents";
import { ApplicationLinkSection } from "./application-link";
import { Figures, Persons, RegisterFacts } from "./lead-facts";
import { Offers, Outcomes, Unlocks } from "./lead-offers";
import { Renewal, Simulate } from "./lead-simulate";
import { stateLabel, type LeadView } from "./lead-view";

export function LeadDetailPage({ c, lead, needs = [], feedback }: { c: PortalContext; lead: LeadView; needs?: OptionNeeds[]; feedback?: PageFeedback }) {
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
          <p>
            <a href={checkPath(lead.id)} class="next-step">
              Check your answers and submit
            </a>
          </p>
        </>
      ) : null}
      {lead.out_of_scope_reasons && lead.out_of_scope_reasons.length > 0 ? (
        <ul>
          {lead.out_of_scope_reasons.map((r) => (
            <li>{r.detail}</li>
          ))}
        </ul>
      ) : null}
      <ApplicationSection lead={lead} />
      <h2 id="offers">Offers</h2>
      <Offers c={c} lead={lead} />
      <LenderNeedsSection lead={lead} needs={needs} />
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
      <HubLink lead={lead} />
      <ApplicationLinkSection c={c} lead={lead} />
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
