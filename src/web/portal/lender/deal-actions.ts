/**
 * What a lender does on a deal page, each a form post handled like its lender
 * API route: the same zod schema (src/api/shared/schemas/deal-actions.ts), the
 * same service function with the member's scope, hence the same events and
 * webhooks. Each is the portal's one form shape (form-action.ts): success is
 * audited in the action's own batch, then 303 back to the deal with a fixed
 * notice; a refusal is the deal page again with the API's status and the
 * message beside the field, nothing written; another lender's deal, or one of
 * the other environment, is the 404 page (the portal's error handler).
 */
import type { Hono } from "hono";
import { normaliseDealReference } from "../../../domain/deals/reference";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import type { Scope } from "../../../domain/identity/caller";
import { uploadAgreement } from "../../../services/deals/agreements";
import { sendMessage } from "../../../services/deals/messages";
import { makeOffer } from "../../../services/deals/offers";
import { reportStatus } from "../../../services/deals/status";
import { requestDocument, waiveRequest } from "../../../services/documents/requests";
import { registerWaiveConfirmation } from "./waive-confirm";
import { registerOutcomeConfirmations } from "./outcome-confirm";
import { registerPayoutReveal } from "./payout-reveal";
import { registerWorkingSetActions } from "./working-set-actions";
import type { AuditedAction } from "../../../services/portal/audit";
import { portalForm } from "../form-action";
import { AGREEMENT_MAX_BYTES, DocumentRequestBody, MessageBody, OfferBody, StatusBody, checkAgreementPdf } from "../../../api/shared/schemas/deal-actions";
import { takesFiles } from "../../../middleware/body-limit";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { OFFER_NUMBERS } from "./deal-offers";
import { jsonOfForm, textFields, type FormFields } from "../../kit/form";
import { Refusal } from "../../../lib/refusal";
import { DEAL_FORM_REFUSALS, type DealForm } from "./fields";
import { parseForm } from "../../kit/refusal";
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
function outcomeQuestionOf(fields: FormFields, ref: string): string | null {
  if (fields.status === "declined" || fields.status === "funded") return `${PORTAL_ROUTE}/deals/${ref}/${fields.status === "declined" ? "decline" : "funded"}`;
  return null;
}

/** The In review report; an outcome posted here even with a confirmation is decided only on its own page. */
function statusReportOfForm(fields: FormFields): Record<string, unknown> {
  if (outcomeQuestionOf(fields, "") !== null) throw new Refusal("invalid_request", "Decline or report funded on the deal's own confirm page.", { field: "status" });
  return jsonOfForm(fields, { numbers: ["funded_amount"] });
}

interface Done {
  notice: keyof typeof DEAL_NOTICES;
  /** The section of the deal page to land on. */
  anchor: string;
}

type Action = (input: { c: PortalContext; scope: Scope; ref: string; fields: FormFields; form: FormData; entry: Pick<AuditedAction, "about"> }) => Promise<Done>;

const refOf = (c: PortalContext) => normaliseDealReference(c.req.param("ref") ?? "");

/**
 * One deal form (the portal's `portalForm`): audited as `action`, about the deal unless the action
 * names what it made; a refusal is the deal page again with the message beside this form's field.
 */
function dealForm(form: DealForm, action: string, act: Action, options: { confirm?: (c: PortalContext, form: FormData) => string | null } = {}) {
  return portalForm<FormFields>({
    audit: (c) => ({ action, target: refOf(c) }),
    draftOf: (posted) => textFields(posted, { trim: true }),
    codes: DEAL_FORM_REFUSALS,
    confirm: options.confirm,
    showAgain: (c, refusal, draft) => renderDeal(c, refOf(c), refusal.status, { refusal: { ...refusal, form, draft } }),
    page: (c) => `${PORTAL_ROUTE}/deals/${refOf(c)}`,
    act: async (c, posted, entry) => {
      const ref = refOf(c);
      const done = await act({ c, scope: scopeOfViewer(c.get("viewer")), ref, fields: textFields(posted, { trim: true }), form: posted, entry });
      return `${PORTAL_ROUTE}/deals/${ref}?notice=${done.notice}#${done.anchor}`;
    },
  });
}

export function registerDealActions(portal: Hono<PortalEnv>) {
  portal.post(
    "/deals/:ref/offers",
    dealForm("offer", "offer.made", async ({ c, scope, ref, fields, entry }) => {
      const terms = parseForm(OfferBody, jsonOfForm(fields, { numbers: OFFER_NUMBERS, days: ["expires_at"] }), "body");
      entry.about((await makeOffer(c.get("deps"), scope, ref, terms)).id);
      return { notice: "offer_made", anchor: "offers" };
    }),
  );

  portal.post(
    "/deals/:ref/status",
    dealForm(
      "status",
      "deal.status_reported",
      async ({ c, scope, ref, fields }) => {
        const report = parseForm(StatusBody, statusReportOfForm(fields), "body");
        await reportStatus(c.get("deps"), scope, ref, report);
        return { notice: "status_reported", anchor: "report" };
      },
      { confirm: (c, form) => outcomeQuestionOf(textFields(form, { trim: true }), refOf(c)) },
    ),
  );

  portal.post(
    "/deals/:ref/messages",
    dealForm("message", "message.sent", async ({ c, scope, ref, fields, entry }) => {
      const { body } = parseForm(MessageBody, jsonOfForm(fields), "body");
      entry.about((await sendMessage(c.get("deps"), scope, ref, body)).id);
      return { notice: "message_sent", anchor: "messages" };
    }),
  );

  portal.post(
    "/deals/:ref/requests",
    dealForm("request", "document.requested", async ({ c, scope, ref, fields, entry }) => {
      const ask = parseForm(DocumentRequestBody, jsonOfForm(fields), "body");
      entry.about((await requestDocument(c.get("deps"), scope, ref, ask)).id);
      return { notice: "document_requested", anchor: "requests" };
    }),
  );

  registerWaiveConfirmation(portal);
  registerOutcomeConfirmations(portal);
  registerPayoutReveal(portal);
  registerWorkingSetActions(portal);

  portal.post(
    "/deals/:ref/requests/:id/waive",
    dealForm(
      "waive",
      "request.waived",
      async ({ c, scope, ref, entry }) => {
        entry.about((await waiveRequest(c.get("deps"), scope, ref, c.req.param("id") ?? "")).id);
        return { notice: "request_waived", anchor: "requests" };
      },
      // Without the confirmation page's field nothing is waived: the person is shown the question first.
      { confirm: (c) => `${PORTAL_ROUTE}/deals/${refOf(c)}/requests/${encodeURIComponent(c.req.param("id") ?? "")}/waive` },
    ),
  );

  portal.post(
    "/deals/:ref/simulate",
    dealForm("simulate", "test_deal.simulated", async ({ c, scope, ref, fields }) => {
      const event = fields.event ?? "";
      if (!(TEST_DEAL_SIMULATED_EVENT_VALUES as readonly string[]).includes(event)) {
        throw new Refusal("invalid_request", "Choose one of the business's steps.", { field: "event" });
      }
      // Another lender's deal, the other environment's, or a real (not test) deal: not_found, the 404 page.
      await simulated(simulateTestDealEvent(viewContext(c.env, { deps: c.get("deps") }), scope, ref, event as TestDealSimulatedEvent));
      return { notice: `simulated_${event}`, anchor: "simulate" };
    }),
  );

  portal.post(
    "/deals/:ref/agreement",
    takesFiles(AGREEMENT_MAX_BYTES),
    dealForm("agreement", "agreement.uploaded", async ({ c, scope, ref, form }) => {
      // The part a file input sends (typed as text by the platform's FormData, a File at run time).
      const file: unknown = form.get("agreement");
      if (!(file instanceof File) || (file.size === 0 && file.name === "")) {
        throw new Refusal("invalid_request", "Choose the agreement PDF to upload.", { field: "agreement" });
      }
      const pdf = await file.arrayBuffer();
      checkAgreementPdf(file.type, pdf, "agreement");
      await uploadAgreement(c.get("deps"), scope, ref, pdf);
      return { notice: "agreement_uploaded", anchor: "completion" };
    }),
  );
}
