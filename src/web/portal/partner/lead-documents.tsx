/** The lead's documents, its bank-statement figure, the upload form and the client's hub link. */
import { fileNameInWords, formatFor, LABELS } from "../../kit/format";
import { Copyable } from "../../kit/copy";
import { ConfirmStart } from "../../kit/confirm";
import { RecordTable } from "../../kit/table";
import { FormulaCellsWarning } from "../../kit/file-warnings";
import { DOCUMENT_TYPES } from "../../../domain/reference/values";
import { PORTAL_ROUTE, type PortalContext } from "../context";
import { FieldError, FormToken, RequiredMark } from "../layout";
import { hubLinkPath } from "./hub-link";
import { partnerMayRemove } from "../../../domain/documents/removal";
import { removeDocumentPath, type LeadView } from "./lead-view";

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

export function Documents({ c, lead, error }: { c: PortalContext; lead: LeadView; error: string | null }) {
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
                  <bdi>{fileNameInWords(d.filename)}</bdi>
                  <FormulaCellsWarning flagged={d.formula_cells} />
                </>
              ),
            },
            { header: "Type", cell: (d) => LABELS.documentType(d.document_type) },
            { header: "State", cell: (d) => (d.state === "rejected" ? `Rejected: ${LABELS.rejection(d.reason).toLowerCase()}` : "Accepted") },
            { header: "Received", cell: (d) => f.time(d.received_at) },
            {
              header: "Action",
              actions: true,
              // Only a rejected document can be taken off the lead (domain/documents/removal.ts); the button leads to the confirm page.
              cell: (d) => (partnerMayRemove(d) ? <ConfirmStart href={removeDocumentPath(lead.id, d.id)} label={`Remove ${fileNameInWords(d.filename)}`} danger /> : null),
            },
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
              // "Upload it for the client" beside a lender's request opens the form on the requested type.
              <option value={t.value} selected={t.value === c.req.query("document_type") || undefined}>
                {t.label}
              </option>
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

/** The client's hub link, copyable, and the way to a new one. */
export function HubLink({ lead }: { lead: LeadView }) {
  if (!lead.upload_url) return null;
  return (
    <>
      <p>The client's upload link:</p>
      <p>
        <Copyable value={lead.upload_url} anchor="hub-link" what="the client's hub link" secret />
      </p>
      <p class="muted" id="hub-link-note">A new link ends this one at once (for a link sent to the wrong address, or one that leaked).</p>
      <ConfirmStart href={hubLinkPath(lead.id)} label="New hub link" describedBy="hub-link-note" />
    </>
  );
}
