/** Documents with their signed download links, the document requests and their states, and the form to ask for one. */
import type { DealView } from "../../../domain/deals/view";
import type { documentRequestView } from "../../../domain/documents/view";
import { REQUEST_ITEM_TYPES } from "../../../domain/reference/values";
import { NOTE_MAX_CHARS } from "../../../api/shared/schemas/deal-actions";
import { PORTAL_ROUTE } from "../context";
import { FormToken } from "../layout";
import { FormRefusal, Section, SelectField, TextArea, refusalFor, type FormState } from "./fields";
import { fileNameInWords, LABELS } from "../../kit/format";
import { RecordTable } from "../../kit/table";
import { FormulaCellsWarning } from "../../kit/file-warnings";
import { day } from "./labels";
import type { DealRefusal } from "./fields";

type RequestView = ReturnType<typeof documentRequestView>;

export function DocumentsSection(props: { deal: DealView }) {
  const documents = props.deal.documents;
  return (
    <Section id="documents" title="Documents">
      {documents.length === 0 ? (
        <p>No documents yet.</p>
      ) : (
        <RecordTable
          label="Documents"
          rows={documents}
          columns={[
            {
              header: "File",
              rowHeader: true,
              cell: (d) => (
                <>
                  <a href={d.url} data-document={d.id}>
                    <bdi>{fileNameInWords(d.filename)}</bdi>
                  </a>
                  <FormulaCellsWarning flagged={d.formula_cells} />
                </>
              ),
            },
            { header: "Type", cell: (d) => LABELS.documentType(d.document_type) },
            { header: "From", cell: (d) => (d.source === "partner_upload" ? "Introducer" : "Client") },
            { header: "Uploaded", cell: (d) => day(d.uploaded_at) },
          ]}
        />
      )}
      <p class="muted">Download links are signed and work for one hour; reload the page for fresh ones.</p>
    </Section>
  );
}

const OPEN = ["requested", "uploaded"];

export function RequestsSection(props: { dealRef: string; requests: RequestView[]; formToken: string; refusal: DealRefusal | null; closed?: boolean }) {
  const state: FormState = { form: "request", refusal: props.refusal };
  const waive: FormState = { form: "waive", refusal: props.refusal };
  return (
    <Section id="requests" title="Document requests">
      {props.requests.length === 0 ? (
        <p>You have not asked the client for any document.</p>
      ) : (
        <RecordTable
          label="Document requests"
          rows={props.requests}
          // A waived request is no longer asked for: said in words, drawn muted.
          rowData={(r) => ({ request: r.id })}
          inactive={(r) => (r.status === "waived" ? "Waived" : null)}
          columns={[
            {
              header: "Asked for",
              rowHeader: true,
              cell: (r) => (
                <>
                  {r.label}
                  {r.note ? (
                    <span class="muted">
                      {" ("}
                      <bdi>{r.note}</bdi>)
                    </span>
                  ) : null}
                </>
              ),
            },
            { header: "State", cell: (r) => LABELS.requestStatus(r.status) },
            { header: "Asked on", cell: (r) => day(r.requested_at) },
            { header: "Files", cell: (r) => String(r.file_count) },
            {
              header: "Action",
              actions: true,
              cell: (r) =>
                OPEN.includes(r.status) && !props.closed ? (
                  // A GET to the confirmation page: waiving cannot be undone, so it is asked first (works without JavaScript).
                  <form method="get" action={`${PORTAL_ROUTE}/deals/${props.dealRef}/requests/${r.id}/waive`}>
                    <button type="submit" aria-label={`Waive the request for ${r.label}`}>
                      Waive…
                    </button>
                  </form>
                ) : null,
            },
          ]}
        />
      )}
      {refusalFor(waive) ? <FormRefusal state={waive} fields={[]} /> : null}
      {props.closed ? null : (
        <>
      <h3>Ask the client for a document</h3>
      <form method="post" action={`${PORTAL_ROUTE}/deals/${props.dealRef}/requests`}>
        <FormToken token={props.formToken} />
        <SelectField state={state} name="item_type" label="Document" options={REQUEST_ITEM_TYPES} />
        <TextArea state={state} name="note" label="Note for the client (optional)" maxlength={NOTE_MAX_CHARS} />
        <FormRefusal state={state} fields={["item_type", "note"]} />
        <button type="submit">Request document</button>
      </form>
        </>
      )}
    </Section>
  );
}
