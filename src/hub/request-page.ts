import { html } from "hono/html";
import { OPEN_REQUEST_STATUSES } from "../domain/documents/types";
import type { requestPage as loadRequestPage } from "../services/client-hub";
import { feedback, layout, when, type Feedback } from "./layout";

type RequestPage = Awaited<ReturnType<typeof loadRequestPage>>;

/** One document request: what is asked, what was sent, and the upload form while it is open. */
export function requestPage(base: string, p: RequestPage, f: Feedback = {}) {
  const { request, deal, files } = p;
  const open = OPEN_REQUEST_STATUSES.includes(request.status);
  const content = html`<h1>${request.label}</h1>
<p>Requested ${when(request.requestedAt)} for ${deal.label} (${deal.deal.ref}). Status: <strong id="request-status">${request.status}</strong>, ${request.fileCount} file(s).</p>
${request.note ? html`<p>Note: ${request.note}</p>` : ""}
${feedback(f)}
${
  files.length > 0
    ? html`<h2>Files sent</h2><ul id="request-files">${files.map((d) => html`<li>${d.filename} (${d.byteSize} bytes, ${when(d.receivedAt)})</li>`)}</ul>`
    : ""
}
${
  open
    ? html`<h2>Upload</h2><form method="post" enctype="multipart/form-data" action="${base}/requests/${request.id}">
<label for="file">File(s)</label><input id="file" type="file" name="file" multiple required>
<button type="submit">Upload</button></form>`
    : html`<p class="muted">This request takes no more files.</p>`
}`;
  return layout(request.label, base, content);
}
