/**
 * What a lender does on a deal page, each a form post handled like its lender
 * API route: the same zod schema (src/api/shared/schemas/deal-actions.ts), the
 * same service function with the member's scope, hence the same events and
 * webhooks. Success: audited, then 303 back to the deal with a fixed notice.
 * Refusal: the deal page again with the API's status and the message beside
 * the field, nothing written. Another lender's deal, or one of the other
 * environment: the 404 page.
 */
import type { Hono } from "hono";
import { normaliseDealReference } from "../../../domain/deals/reference";
import { scopeOfViewer, type PortalViewer } from "../../../domain/portal/viewer";
import type { Scope } from "../../../domain/identity/caller";
import { uploadAgreement } from "../../../services/deals/agreements";
import { sendMessage } from "../../../services/deals/messages";
import { makeOffer } from "../../../services/deals/offers";
import { reportStatus } from "../../../services/deals/status";
import { requestDocument, waiveRequest } from "../../../services/documents/requests";
import { isConfirmed } from "../../kit/confirm";
import { registerWaiveConfirmation } from "./waive-confirm";
import { registerOutcomeConfirmations } from "./outcome-confirm";
import { registerPayoutReveal } from "./payout-reveal";
import { registerWorkingSetActions } from "./working-set-actions";
import { recordPortalAction } from "../../../services/portal/audit";
import { AGREEMENT_MAX_BYTES, DocumentRequestBody, MessageBody, OfferBody, StatusBody, checkAgreementPdf } from "../../../api/shared/schemas/deal-actions";
import { takesFiles } from "../../../middleware/body-limit";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { notFoundPage } from "../refused-page";
import { OFFER_NUMBERS } from "./deal-offers";
import { jsonOfForm, readForm, textFields, type FormFields } from "../../kit/form";
import { Refusal } from "../../../lib/refusal";
import { DEAL_FORM_REFUSALS, type DealForm } from "./fields";
import { isNotFound, parseForm, refusalForPage } from "../../kit/refusal";
import { DEAL_NOTICES, renderDeal } from "./render-deal";
import { TEST_DEAL_SIMULATED_EVENT_VALUES, type TestDealSimulatedEvent } from "../../../domain/deals/sandbox-business";
import { simulateTestDealEvent } from "../../../services/sandbox/test-deal-simulation";
import { viewContext } from "../../../services/views/view-context";

/** The simulation's refusals name API endpoints; the page says the same in the portal's words. */
const SIMULATE_WORDS: Partial<Record<string, string>> = {
  offer_not_acceptable: "There is no current offer for the business to accept: make an offer first (an accepted offer cannot be accepted again).",
  no_open_request: "There is no open document request for the business to answer: ask for a document first.",
};

async function simulated(step: Promise<unknown>) {
  try {
    await step;
  } catch (error) {
    if (error instanceof Refusal && SIMULATE_WORDS[error.code]) throw new Refusal(error.code, SIMULATE_WORDS[error.code]!, { field: "event" });
    throw error;
  }
}

/**
 * The status form reports In review only: Decline and Funded are final and each has its own confirm
 * page (outcome-confirm.tsx); either posted here (a stale page, a script) sends the person to it.
 */
function statusReportOfForm(fields: FormFields, ref: string): Record<string, unknown> {
  if (fields.status === "declined" || fields.status === "funded") throw new Unconfirmed(`${PORTAL_ROUTE}/deals/${ref}/${fields.status === "declined" ? "decline" : "funded"}`);
  return jsonOfForm(fields, { numbers: ["funded_amount"] });
}

/** An action that must be confirmed first was posted without the confirmation: the person is sent to the question. */
class Unconfirmed extends Error {
  constructor(readonly location: string) {
    super("unconfirmed");
  }
}

interface Done {
  /** The audit log's action name. */
  action: string;
  /** The id the action was about (never personal data). */
  target: string;
  notice: keyof typeof DEAL_NOTICES;
  /** The section of the deal page to land on. */
  anchor: string;
}

type Action = (input: { c: PortalContext; scope: Scope; ref: string; fields: FormFields; form: FormData }) => Promise<Done>;


function handle(form: DealForm, action: Action) {
  return async (c: PortalContext) => {
    const viewer: PortalViewer = c.get("viewer");
    const ref = normaliseDealReference(c.req.param("ref") ?? "");
    const posted = await readForm(c);
    const fields = textFields(posted, { trim: true });
    let done: Done;
    try {
      done = await action({ c, scope: scopeOfViewer(viewer), ref, fields, form: posted });
    } catch (error) {
      if (error instanceof Unconfirmed) return c.redirect(error.location, 303);
      if (isNotFound(error)) return c.html(notFoundPage(), 404);
      const refusal = refusalForPage(error, DEAL_FORM_REFUSALS);
      return renderDeal(c, ref, refusal.status, { refusal: { ...refusal, form, draft: fields } });
    }
    await recordPortalAction(c.get("deps"), viewer, done.action, done.target);
    return c.redirect(`${PORTAL_ROUTE}/deals/${ref}?notice=${done.notice}#${done.anchor}`, 303);
  };
}

export function registerDealActions(portal: Hono<PortalEnv>) {
  portal.post(
    "/deals/:ref/offers",
    handle("offer", async ({ c, scope, ref, fields }) => {
      const terms = parseForm(OfferBody, jsonOfForm(fields, { numbers: OFFER_NUMBERS, days: ["expires_at"] }), "body");
      const offer = await makeOffer(c.get("deps"), scope, ref, terms);
      return { action: "offer.made", target: offer.id, notice: "offer_made", anchor: "offers" };
    }),
  );

  portal.post(
    "/deals/:ref/status",
    handle("status", async ({ c, scope, ref, fields }) => {
      const report = parseForm(StatusBody, statusReportOfForm(fields, ref), "body");
      const deal = await reportStatus(c.get("deps"), scope, ref, report);
      return { action: "deal.status_reported", target: deal.ref, notice: "status_reported", anchor: "report" };
    }),
  );

  portal.post(
    "/deals/:ref/messages",
    handle("message", async ({ c, scope, ref, fields }) => {
      const { body } = parseForm(MessageBody, jsonOfForm(fields), "body");
      const message = await sendMessage(c.get("deps"), scope, ref, body);
      return { action: "message.sent", target: message.id, notice: "message_sent", anchor: "messages" };
    }),
  );

  portal.post(
    "/deals/:ref/requests",
    handle("request", async ({ c, scope, ref, fields }) => {
      const ask = parseForm(DocumentRequestBody, jsonOfForm(fields), "body");
      const request = await requestDocument(c.get("deps"), scope, ref, ask);
      return { action: "document.requested", target: request.id, notice: "document_requested", anchor: "requests" };
    }),
  );

  registerWaiveConfirmation(portal);
  registerOutcomeConfirmations(portal);
  registerPayoutReveal(portal);
  registerWorkingSetActions(portal);

  portal.post(
    "/deals/:ref/requests/:id/waive",
    handle("waive", async ({ c, scope, ref, fields }) => {
      // Without the confirmation page's field nothing is waived: the person is shown the question first.
      if (!isConfirmed(fields)) throw new Unconfirmed(`${PORTAL_ROUTE}/deals/${ref}/requests/${encodeURIComponent(c.req.param("id") ?? "")}/waive`);
      const request = await waiveRequest(c.get("deps"), scope, ref, c.req.param("id") ?? "");
      return { action: "request.waived", target: request.id, notice: "request_waived", anchor: "requests" };
    }),
  );

  portal.post(
    "/deals/:ref/simulate",
    handle("simulate", async ({ c, scope, ref, fields }) => {
      const event = fields.event ?? "";
      if (!(TEST_DEAL_SIMULATED_EVENT_VALUES as readonly string[]).includes(event)) {
        throw new Refusal("invalid_request", "Choose one of the business's steps.", { field: "event" });
      }
      // Another lender's deal, the other environment's, or a real (not test) deal: not_found, the 404 page.
      await simulated(simulateTestDealEvent(viewContext(c.env, { deps: c.get("deps") }), scope, ref, event as TestDealSimulatedEvent));
      return { action: "test_deal.simulated", target: ref, notice: `simulated_${event}`, anchor: "simulate" };
    }),
  );

  portal.post(
    "/deals/:ref/agreement",
    takesFiles(AGREEMENT_MAX_BYTES),
    handle("agreement", async ({ c, scope, ref, form }) => {
      // The part a file input sends (typed as text by the platform's FormData, a File at run time).
      const file: unknown = form.get("agreement");
      if (!(file instanceof File) || (file.size === 0 && file.name === "")) {
        throw new Refusal("invalid_request", "Choose the agreement PDF to upload.", { field: "agreement" });
      }
      const pdf = await file.arrayBuffer();
      checkAgreementPdf(file.type, pdf, "agreement");
      await uploadAgreement(c.get("deps"), scope, ref, pdf);
      return { action: "agreement.uploaded", target: ref, notice: "agreement_uploaded", anchor: "completion" };
    }),
  );
}
