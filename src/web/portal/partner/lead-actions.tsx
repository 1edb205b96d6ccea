/**
 * What a partner does to a lead beyond filling it in, each through the API's
 * own service: upload a document (uploadLeadDocument, as POST
 * /leads/{id}/documents), renew a funded lead (renewLead, POST
 * /leads/{id}/renewals) and, on a sandbox lead, the simulate events
 * (simulateLeadEvent, POST /sandbox/leads/{id}/simulate). Each answers with a
 * redirect to the lead with its notice, or the lead page again with the
 * refusal in the person's words; each success is audited.
 */
import type { Hono } from "hono";
import { z } from "@hono/zod-openapi";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { LEAD_STATES_OPEN_FOR_OFFERS, LEAD_STATES_OPEN_FOR_OUTCOME } from "../../../domain/deals/status";
import { DOCUMENT_TYPE_VALUES, LEAD_STATES } from "../../../domain/reference/values";
import { requireLead } from "../../../services/leads/leads";
import { takesFiles, UPLOAD_BODY_LIMIT_BYTES } from "../../../middleware/body-limit";
import { sizeInWords } from "../../kit/format";
import { uploadLeadDocument } from "../../../services/documents/lead-documents";
import { renewLead } from "../../../services/leads/renewals";
import { simulateLeadEvent, type SimulatedEvent } from "../../../services/leads/offers";
import { panelMatcher } from "../../../services/leads/routing";
import { parseForm, type PageRefusal } from "../../kit/refusal";
import { textOf, pageAbove } from "../../kit/form";
import { Refusal } from "../../../lib/refusal";
import { portalForm } from "../form-action";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";

const leadPath = (id: string) => `${PORTAL_ROUTE}/leads/${encodeURIComponent(id)}`;

/** The simulate events a sandbox lead in `state` can take, with their buttons' words. */
const SIMULATIONS: { event: SimulatedEvent; label: string; allowed: (state: string) => boolean }[] = [
  { event: "offers", label: "Simulate new offers", allowed: (state) => (LEAD_STATES_OPEN_FOR_OFFERS as readonly string[]).includes(state) },
  { event: "decline", label: "Simulate a decline", allowed: (state) => (LEAD_STATES_OPEN_FOR_OUTCOME as readonly string[]).includes(state) },
  { event: "fund", label: "Simulate funding", allowed: (state) => state === "offer_accepted" },
];

export const simulationsFor = (state: string) => SIMULATIONS.filter((s) => s.allowed(state)).map(({ event, label }) => ({ event, label }));

const stateLabelOf = (state: string) => LEAD_STATES.find((s) => s.value === state)?.label ?? state.replace(/_/g, " ");

/** The upload form as the API's DocumentUploadForm takes it: a file part and a document type from the list. */
const UploadForm = z.object({
  file: z.instanceof(File),
  document_type: z.enum(DOCUMENT_TYPE_VALUES),
});

/** Shows the lead page again with a refusal; supplied by lead-detail.tsx (which renders the page). */
type ShowLeadWithError = (c: PortalContext, id: string, error: { message: string; field: string | null }, status: PageRefusal["status"]) => Promise<Response>;

const leadIdOf = (c: PortalContext) => c.req.param("id") ?? "";

export function registerLeadActions(portal: Hono<PortalEnv>, showWithError: ShowLeadWithError) {
  portal.post(
    "/leads/:id/documents",
    takesFiles(),
    portalForm({
      audit: () => ({ action: "document.uploaded" }),
      page: pageAbove(),
      showAgain: (c, refusal) =>
        showWithError(c, leadIdOf(c), { message: refusal.message, field: refusal.field === "file" || refusal.field === "document_type" ? refusal.field : null }, refusal.status),
      act: async (c, form, entry) => {
        const id = leadIdOf(c);
        // A browser sends an empty file part (no name, no bytes) when no file was chosen: that is no file.
        const chosen = form.get("file");
        const given = (chosen as unknown) instanceof File && ((chosen as unknown as File).name !== "" || (chosen as unknown as File).size > 0) ? chosen : undefined;
        const { file, document_type } = parseForm(UploadForm, { file: given, document_type: form.get("document_type") || undefined }, "form");
        if (file.size > UPLOAD_BODY_LIMIT_BYTES) {
          throw new Refusal("payload_too_large", `The file is larger than ${sizeInWords(UPLOAD_BODY_LIMIT_BYTES)}: make it smaller (a PDF instead of photos, a scan at a lower resolution) and upload it again.`, { field: "file" });
        }
        const doc = await uploadLeadDocument(c.get("deps"), scopeOfViewer(c.get("viewer")), id, {
          documentType: document_type,
          filename: file.name,
          bytes: new Uint8Array(await file.arrayBuffer()),
        });
        entry.about(doc.id);
        return `${leadPath(id)}?done=${doc.state === "accepted" ? "document_accepted" : "document_rejected"}#documents`;
      },
    }),
  );

  portal.post(
    "/leads/:id/renewals",
    portalForm({
      audit: () => ({ action: "lead.renewed" }),
      page: pageAbove(),
      showAgain: (c, refusal) => showWithError(c, leadIdOf(c), { message: refusal.message, field: null }, refusal.status),
      act: async (c, _form, entry) => {
        const renewal = await renewLead(c.get("deps"), scopeOfViewer(c.get("viewer")), leadIdOf(c));
        entry.about(renewal.id);
        return `${leadPath(renewal.id)}?done=renewal`;
      },
    }),
  );

  portal.post(
    "/leads/:id/simulate",
    portalForm<{ event: string }>({
      audit: (c, form) => ({ action: `lead.simulated_${textOf(form, "event")}`, target: leadIdOf(c) }),
      draftOf: (form) => ({ event: textOf(form, "event") }),
      page: pageAbove(),
      showAgain: async (c, refusal, { event }) => {
        const id = leadIdOf(c);
        // The service names the state and event by their codes; the page says it with the button's words.
        const lead = refusal.code === "invalid_transition" ? await requireLead(c.get("deps"), scopeOfViewer(c.get("viewer")), id).catch(() => null) : null;
        const label = SIMULATIONS.find((s) => s.event === event)?.label;
        const message = lead && label && !refusal.message.startsWith("No panel product") ? `${label} is not possible while the lead is ${stateLabelOf(lead.state).toLowerCase()}.` : refusal.message;
        return showWithError(c, id, { message, field: null }, refusal.status);
      },
      act: async (c, form) => {
        const id = leadIdOf(c);
        const simulation = SIMULATIONS.find((s) => s.event === textOf(form, "event"));
        if (!simulation) throw new Refusal("invalid_request", "Choose one of the simulate buttons on the page.");
        await simulateLeadEvent(c.get("deps"), scopeOfViewer(c.get("viewer")), id, simulation.event, panelMatcher(c.get("deps")));
        return `${leadPath(id)}?done=simulated_${simulation.event}`;
      },
    }),
  );
}
