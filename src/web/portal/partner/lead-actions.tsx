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
import { recordPortalAction } from "../../../services/portal/audit";
import { formProblemsOfZod, isNotFound, refusalForPage, type PageRefusal } from "../../kit/refusal";
import { readForm } from "../../kit/form";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { notFoundPage } from "../refused-page";

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

const SimulateForm = z.object({ event: z.enum(["offers", "decline", "fund"]) });

/** Shows the lead page again with a refusal; supplied by lead-detail.tsx (which renders the page). */
type ShowLeadWithError = (c: PortalContext, id: string, error: { message: string; field: string | null }, status: PageRefusal["status"]) => Promise<Response>;

export function registerLeadActions(portal: Hono<PortalEnv>, showWithError: ShowLeadWithError) {
  portal.post("/leads/:id/documents", takesFiles(), async (c) => {
    const viewer = c.get("viewer");
    const id = c.req.param("id");
    const form = await readForm(c);
    // A browser sends an empty file part (no name, no bytes) when no file was chosen: that is no file.
    const chosen = form.get("file");
    const given = (chosen as unknown) instanceof File && ((chosen as unknown as File).name !== "" || (chosen as unknown as File).size > 0) ? chosen : undefined;
    const posted = { file: given, document_type: form.get("document_type") || undefined };
    const parsed = UploadForm.safeParse(posted);
    if (!parsed.success) {
      const problems = formProblemsOfZod(parsed.error, posted, (field) => field ?? null);
      const field = Object.keys(problems.byInput)[0] ?? null;
      return showWithError(c, id, { message: field ? problems.byInput[field] : problems.summary.message, field }, 400);
    }
    const { file, document_type } = parsed.data;
    try {
      if (file.size > UPLOAD_BODY_LIMIT_BYTES) return showWithError(c, id, { message: `The file is larger than ${sizeInWords(UPLOAD_BODY_LIMIT_BYTES)}: make it smaller (a PDF instead of photos, a scan at a lower resolution) and upload it again.`, field: "file" }, 413);
      const doc = await uploadLeadDocument(c.get("deps"), scopeOfViewer(viewer), id, {
        documentType: document_type,
        filename: file.name,
        bytes: new Uint8Array(await file.arrayBuffer()),
      });
      await recordPortalAction(c.get("deps"), viewer, "document.uploaded", doc.id);
      return c.redirect(`${leadPath(id)}?done=${doc.state === "accepted" ? "document_accepted" : "document_rejected"}#documents`, 303);
    } catch (error) {
      if (isNotFound(error)) return c.html(notFoundPage(), 404);
      const refusal = refusalForPage(error);
      return showWithError(c, id, { message: refusal.message, field: refusal.field === "file" ? "file" : null }, refusal.status);
    }
  });

  portal.post("/leads/:id/renewals", async (c) => {
    const viewer = c.get("viewer");
    const id = c.req.param("id");
    try {
      const renewal = await renewLead(c.get("deps"), scopeOfViewer(viewer), id);
      await recordPortalAction(c.get("deps"), viewer, "lead.renewed", renewal.id);
      return c.redirect(`${leadPath(renewal.id)}?done=renewal`, 303);
    } catch (error) {
      if (isNotFound(error)) return c.html(notFoundPage(), 404);
      const refusal = refusalForPage(error);
      return showWithError(c, id, { message: refusal.message, field: null }, refusal.status);
    }
  });

  portal.post("/leads/:id/simulate", async (c) => {
    const viewer = c.get("viewer");
    const id = c.req.param("id");
    const form = await readForm(c);
    const parsed = SimulateForm.safeParse({ event: form.get("event") ?? undefined });
    if (!parsed.success) return showWithError(c, id, { message: "Choose one of the simulate buttons on the page.", field: null }, 400);
    try {
      await simulateLeadEvent(c.get("deps"), scopeOfViewer(viewer), id, parsed.data.event, panelMatcher(c.get("deps")));
    } catch (error) {
      if (isNotFound(error)) return c.html(notFoundPage(), 404);
      const refusal = refusalForPage(error);
      // The service names the state and event by their codes; the page says it with the button's words.
      const lead = refusal.code === "invalid_transition" ? await requireLead(c.get("deps"), scopeOfViewer(viewer), id).catch(() => null) : null;
      const label = SIMULATIONS.find((s) => s.event === parsed.data.event)!.label;
      const message = lead && !refusal.message.startsWith("No panel product") ? `${label} is not possible while the lead is ${stateLabelOf(lead.state).toLowerCase()}.` : refusal.message;
      return showWithError(c, id, { message, field: null }, refusal.status);
    }
    await recordPortalAction(c.get("deps"), viewer, `lead.simulated_${parsed.data.event}`, id);
    return c.redirect(`${leadPath(id)}?done=simulated_${parsed.data.event}`, 303);
  });
}
