import { html, raw } from "hono/html";
import { ALLOWED_KINDS } from "../../domain/documents/decision";
import { FILE_KIND_NAMES } from "../../domain/documents/file-kind-names";
import { OPEN_REQUEST_STATUSES } from "../../domain/documents/types";
import { FILES_PER_UPLOAD_MAX } from "../../domain/hub/view";
import type { DocumentType } from "../../domain/reference/values";
import { UPLOAD_BODY_LIMIT_BYTES } from "../../middleware/body-limit";
import type { requestPage as loadRequestPage } from "../../services/hub/client-hub";
import { fileSizeInWords, LABELS, sizeInWords } from "../kit/format";
import { feedback, layout, requiredMark, type Feedback, type HubView } from "./layout";

type RequestPage = Awaited<ReturnType<typeof loadRequestPage>>;

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
  const content = html`<h1>${request.label}</h1>
<p>Requested ${local.time(request.requestedAt)} for ${deal.label} (${deal.deal.ref}). Status: <strong id="request-status">${LABELS.requestStatus(request.status)}</strong>, ${request.fileCount} file(s).</p>
${request.note ? html`<p>Note: <bdi>${request.note}</bdi></p>` : ""}
${feedback(f)}
${
  files.length > 0
    ? html`<h2>Files sent</h2><ul id="request-files">${files.map((d) => html`<li><bdi>${d.filename}</bdi> (${fileSizeInWords(d.byteSize)}, ${local.time(d.receivedAt)})</li>`)}</ul>`
    : ""
}
${
  open && !readOnly
    ? html`<h2>Upload</h2><form method="post" enctype="multipart/form-data" action="${base}/requests/${request.id}">
<p id="upload-rules">Accepted file types: ${rules.names.join(", ")}. You can send ${rules.text}.${rules.photos}</p>
<label for="file">File(s)${requiredMark}</label><input id="file" type="file" name="file" accept="${rules.accept}" ${f.error?.field === "file" ? raw('aria-describedby="upload-rules form-error" aria-invalid="true" autofocus') : raw('aria-describedby="upload-rules"')} multiple required>
<button type="submit">Upload</button></form>`
    : html`<p class="muted">This request takes no more files.</p>`
}`;
  return layout(request.label, base, content, readOnly);
}
