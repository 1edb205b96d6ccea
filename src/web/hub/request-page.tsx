import { ALLOWED_KINDS } from "../../domain/documents/decision";
import { FILE_KIND_NAMES } from "../../domain/documents/file-kind-names";
import { OPEN_REQUEST_STATUSES } from "../../domain/documents/types";
import { FILES_PER_UPLOAD_MAX } from "../../domain/hub/view";
import type { DocumentType } from "../../domain/reference/values";
import { UPLOAD_BODY_LIMIT_BYTES } from "../../middleware/body-limit";
import type { requestPage as loadRequestPage } from "../../services/hub/client-hub";
import { fileSizeInWords, LABELS, sizeInWords } from "../kit/format";
import { FeedbackLines, FieldError, HubPage, invalidIf, RequiredMark, type Feedback, type HubView } from "./layout";
import { clientRemovalRefusal } from "../../domain/documents/removal";
import { Confirm, CONFIRMED, ConfirmStart } from "../kit/confirm";

type RequestPage = Awaited<ReturnType<typeof loadRequestPage>>;

/** The confirm page of taking back one file, which its form also posts to. */
export const removeFilePath = (base: string, requestId: string, documentId: string) => `${base}/requests/${requestId}/files/${documentId}/remove`;

/** The question before a file goes (web/kit/confirm.tsx): what it is, what removing does, the one form. */
export function removeFilePage({ base, local }: HubView, p: RequestPage, documentId: string, f: Feedback = {}) {
  const { request, deal, files } = p;
  const file = files.find((d) => d.id === documentId);
  const last = request.fileCount === 1;
  return (
    <HubPage title="Remove a file you sent" base={base}>
      <h1>Remove a file you sent</h1>
      <FeedbackLines f={f} />
      {file ? (
        <Confirm
          question={`Remove ${file.filename} from ${request.label}?`}
          facts={[
            ["File", `${file.filename} (${fileSizeInWords(file.byteSize)})`],
            ["Sent", local.time(file.receivedAt)],
            ["Asked for by", `${deal.label} (${deal.deal.ref})`],
          ]}
          consequence={`The file is deleted, and the funding provider of your ${deal.label} application is told it was removed.${last ? " It was the only file you sent for this request, so you will be asked for the document again." : ""}`}
          irreversible
          next="send the right file on the request's page."
          action={removeFilePath(base, request.id, file.id)}
          hidden={CONFIRMED}
          confirmLabel="Remove the file"
          cancelHref={`${base}/requests/${request.id}`}
          cancelLabel="Keep it, go back"
        />
      ) : (
        <p>This file is no longer on the request.</p>
      )}
      <p>
        <a href={`${base}/requests/${request.id}`}>Back to {request.label}</a>
      </p>
    </HubPage>
  );
}

/** What the upload takes, read from the constants the upload itself is checked against. */
function uploadRules(documentType: string) {
  const kinds = ALLOWED_KINDS[documentType as DocumentType] ?? ALLOWED_KINDS.other;
  return {
    names: kinds.map((k) => FILE_KIND_NAMES[k].label),
    accept: kinds.flatMap((k) => FILE_KIND_NAMES[k].extensions).join(","),
    text: `at most ${FILES_PER_UPLOAD_MAX} files at once, ${sizeInWords(UPLOAD_BODY_LIMIT_BYTES)} in all; files must not be empty`,
    // Said before the upload where photos are taken: an iPhone saves HEIC by default, which is refused (services/hub/client-hub.ts).
    photos: kinds.includes("jpeg")
      ? ` iPhone photos in HEIC format cannot be used: choose 'Most Compatible' in Settings > Camera > Formats, or take a screenshot of the photo and upload that.`
      : "",
  };
}

/** One document request: what is asked, what was sent, and the upload form while it is open. */
export function requestPage({ base, local, readOnly = false }: HubView, p: RequestPage, f: Feedback = {}) {
  const { request, deal, files } = p;
  const open = OPEN_REQUEST_STATUSES.includes(request.status);
  const rules = uploadRules(request.documentType);
  // Sent the wrong file: it can be taken back until the provider decides or no longer needs it (domain/documents/removal.ts).
  const removable = !readOnly && clientRemovalRefusal(request, deal.deal) === null;
  return (
    <HubPage title={request.label} base={base} readOnly={readOnly}>
      <h1>{request.label}</h1>
      <p>
        Requested {local.time(request.requestedAt)} for {deal.label} ({deal.deal.ref}). Status: <strong id="request-status">{LABELS.requestStatus(request.status)}</strong>,{" "}
        {request.fileCount} file(s).
      </p>
      {request.note ? (
        <p>
          Note: <bdi>{request.note}</bdi>
        </p>
      ) : null}
      <FeedbackLines f={f} inputs={open && !readOnly ? ["file"] : []} />
      {files.length > 0 ? (
        <>
          <h2>Files sent</h2>
          <ul id="request-files">
            {files.map((d) => (
              <li>
                <bdi>{d.filename}</bdi> ({fileSizeInWords(d.byteSize)}, {local.time(d.receivedAt)})
                {removable ? (
                  <>
                    {" "}
                    <ConfirmStart href={removeFilePath(base, request.id, d.id)} label={`Remove ${d.filename}`} />
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {open && !readOnly ? (
        <>
          <h2>Upload</h2>
          <form method="post" enctype="multipart/form-data" action={`${base}/requests/${request.id}`}>
            <p id="upload-rules">
              Accepted file types: {rules.names.join(", ")}. You can send {rules.text}.{rules.photos}
            </p>
            <label for="file">
              File(s)
              <RequiredMark />
            </label>
            <input id="file" type="file" name="file" accept={rules.accept} {...invalidIf(f, "file", "upload-rules")} multiple required />
            <FieldError f={f} name="file" />
            <button type="submit">Upload</button>
          </form>
        </>
      ) : (
        <p class="muted">This request takes no more files.</p>
      )}
    </HubPage>
  );
}
