import { scopeOf } from "../../../domain/identity/caller";
import { leadDocumentView } from "../../../domain/documents/view";
import { Refusal } from "../../../lib/refusal";
import type { Router } from "../../router";
import { leadDocuments, removeLeadDocument, uploadLeadDocument } from "../../../services/documents/lead-documents";
import { DOCUMENT_MAX_BYTES, getDocumentRoute, listDocumentsRoute, removeDocumentRoute, uploadDocumentRoute } from "./routes";

export function registerDocumentRoutes(router: Router) {
  router.openapi(uploadDocumentRoute, async (c) => {
    const { file, document_type } = c.req.valid("form");
    if (file.size > DOCUMENT_MAX_BYTES) throw new Refusal("payload_too_large", `The file exceeds ${DOCUMENT_MAX_BYTES} bytes.`, { field: "file" });
    const bytes = new Uint8Array(await file.arrayBuffer());
    const doc = await uploadLeadDocument(c.get("deps"), scopeOf(c.get("caller")), c.req.valid("param").id, {
      documentType: document_type,
      filename: file.name,
      bytes,
    });
    c.header("Location", new URL(`${c.req.path}/${doc.id}`, c.req.url).toString());
    return c.json(leadDocumentView(doc), 201);
  });

  router.openapi(listDocumentsRoute, async (c) => {
    const { lead, documents } = await leadDocuments(c.get("deps"), scopeOf(c.get("caller")), c.req.valid("param").id);
    return c.json({ lead_id: lead.id, documents: documents.map(leadDocumentView), count: documents.length }, 200);
  });

  router.openapi(getDocumentRoute, async (c) => {
    const { id, document_id } = c.req.valid("param");
    const { documents } = await leadDocuments(c.get("deps"), scopeOf(c.get("caller")), id);
    const doc = documents.find((d) => d.id === document_id);
    if (!doc) throw new Refusal("not_found", "No document with that id on this lead.");
    return c.json(leadDocumentView(doc), 200);
  });

  router.openapi(removeDocumentRoute, async (c) => {
    const { id, document_id } = c.req.valid("param");
    const caller = c.get("caller");
    await removeLeadDocument(c.get("deps"), scopeOf(caller), id, document_id, caller.clientId);
    return c.body(null, 204);
  });
}
