/**
 * Removing a rejected document from the lead page: the row's "Remove" leads to the kit's confirm
 * page (web/kit/confirm.tsx), whose one form posts the removal to the API's own service
 * (removeLeadDocument, as DELETE /leads/{id}/documents/{document_id}), audited in its batch.
 */
import type { Hono } from "hono";
import { partnerMayRemove } from "../../../domain/documents/removal";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { Refusal } from "../../../lib/refusal";
import { removeLeadDocument } from "../../../services/documents/lead-documents";
import { fileNameInWords, formatFor, LABELS } from "../../kit/format";
import { Confirm, CONFIRMED } from "../../kit/confirm";
import type { PageRefusal } from "../../kit/refusal";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { portalForm } from "../form-action";
import { PortalPage } from "../layout";
import { leadOfViewer } from "./render-lead";
import { removeDocumentPath } from "./lead-view";

const documentsOfLeadPage = (leadId: string) => `${PORTAL_ROUTE}/leads/${encodeURIComponent(leadId)}#documents`;

type LeadPageError = (c: PortalContext, id: string, error: { message: string; field: string | null }, status: PageRefusal["status"]) => Promise<Response>;

export function registerDocumentRemoval(portal: Hono<PortalEnv>, showWithError: LeadPageError) {
  portal.get("/leads/:id/documents/:documentId/remove", async (c) => {
    const lead = await leadOfViewer(c, c.req.param("id"));
    const doc = lead?.documents.find((d) => d.id === c.req.param("documentId"));
    // Another account's lead, an unknown document, or one already removed: the portal's 404 page.
    if (!lead || !doc) throw new Refusal("not_found", "No such document on this lead.");
    // An accepted document has no Remove button; an old link to one goes back to the list.
    if (!partnerMayRemove(doc)) return c.redirect(documentsOfLeadPage(lead.id), 303);
    const f = formatFor(lead.country);
    const name = fileNameInWords(doc.filename);
    return c.html(
      <PortalPage title={`Remove ${name}?`} viewer={c.get("viewer")} formToken={c.get("formToken")}>
        <Confirm
          question={`Remove the rejected document ${name}?`}
          facts={[
            ["Business", lead.business.name ?? "Unnamed business"],
            ["Lead", lead.reference],
            ["Document", `${name} (${LABELS.documentType(doc.document_type)})`],
            ["Rejected because", LABELS.rejection(doc.reason)],
            ["Received", f.time(doc.received_at)],
          ]}
          consequence="The file is deleted and leaves the lead's documents. No lender ever saw it: rejected documents are not sent to them. If your firm's software listens to this service's events, it is told the file was removed."
          irreversible
          next="upload the right file from the lead's Documents section."
          action={removeDocumentPath(lead.id, doc.id)}
          hidden={{ _form_token: c.get("formToken"), ...CONFIRMED }}
          confirmLabel="Remove the document"
          cancelHref={documentsOfLeadPage(lead.id)}
          cancelLabel="Cancel, keep it"
        />
      </PortalPage>,
    );
  });

  portal.post(
    "/leads/:id/documents/:documentId/remove",
    portalForm({
      audit: (c) => ({ action: "document.removed", target: c.req.param("documentId") ?? null }),
      // Without the confirm page's field nothing is removed: the person is shown the question first.
      confirm: (c) => removeDocumentPath(c.req.param("id") ?? "", c.req.param("documentId") ?? ""),
      showAgain: (c, refusal) => showWithError(c, c.req.param("id") ?? "", { message: refusal.message, field: null }, refusal.status),
      act: async (c) => {
        const id = c.req.param("id") ?? "";
        await removeLeadDocument(c.get("deps"), scopeOfViewer(c.get("viewer")), id, c.req.param("documentId") ?? "", null);
        return `${PORTAL_ROUTE}/leads/${encodeURIComponent(id)}?done=document_removed#documents`;
      },
    }),
  );
}
