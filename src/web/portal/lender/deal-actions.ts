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
import type { z } from "@hono/zod-openapi";
import { normaliseDealReference } from "../../../domain/deals/reference";
import { scopeOfViewer, type PortalViewer } from "../../../domain/portal/viewer";
import type { Scope } from "../../../domain/identity/caller";
import { ApiError } from "../../../lib/errors";
import { uploadAgreement } from "../../../services/deals/agreements";
import { sendMessage } from "../../../services/deals/messages";
import { makeOffer } from "../../../services/deals/offers";
import { reportStatus } from "../../../services/deals/status";
import { requestDocument, waiveRequest } from "../../../services/documents/requests";
import { recordPortalAction } from "../../../services/portal/audit";
import { DocumentRequestBody, MessageBody, OfferBody, StatusBody, checkAgreementPdf } from "../../../api/shared/schemas/deal-actions";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { notFoundPage } from "../refused-page";
import { OFFER_NUMBERS } from "./deal-offers";
import { jsonOfForm, textFields, type FormFields } from "./form-values";
import { isFormRefusal, refusalOf, type DealForm } from "./refusal";
import { DEAL_NOTICES, renderDeal } from "./render-deal";

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

/** Validates like the API route does: the same schema, refused as 400 naming the field. */
function parsed<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body);
  if (!result.success) throw result.error;
  return result.data;
}

function handle(form: DealForm, action: Action) {
  return async (c: PortalContext) => {
    const viewer: PortalViewer = c.get("viewer");
    const ref = normaliseDealReference(c.req.param("ref") ?? "");
    const posted = await c.req.formData();
    const fields = textFields(posted);
    let done: Done;
    try {
      done = await action({ c, scope: scopeOfViewer(viewer), ref, fields, form: posted });
    } catch (error) {
      if (error instanceof ApiError && error.code === "not_found") return c.html(notFoundPage(), 404);
      if (isFormRefusal(error)) return renderDeal(c, ref, error instanceof ApiError ? (error.status as 400) : 400, { refusal: refusalOf(form, error, fields) });
      throw error;
    }
    await recordPortalAction(c.get("db"), viewer, done.action, done.target);
    return c.redirect(`${PORTAL_ROUTE}/deals/${ref}?notice=${done.notice}#${done.anchor}`, 303);
  };
}

export function registerDealActions(portal: Hono<PortalEnv>) {
  portal.post(
    "/deals/:ref/offers",
    handle("offer", async ({ c, scope, ref, fields }) => {
      const terms = parsed(OfferBody, jsonOfForm(fields, { numbers: OFFER_NUMBERS, days: ["expires_at"] }));
      const offer = await makeOffer(c.get("db"), scope, ref, terms);
      return { action: "offer.made", target: offer.id, notice: "offer_made", anchor: "offers" };
    }),
  );

  portal.post(
    "/deals/:ref/status",
    handle("status", async ({ c, scope, ref, fields }) => {
      const report = parsed(StatusBody, jsonOfForm(fields, { numbers: ["funded_amount"] }));
      const deal = await reportStatus(c.get("db"), scope, ref, report);
      return { action: "deal.status_reported", target: deal.ref, notice: "status_reported", anchor: "report" };
    }),
  );

  portal.post(
    "/deals/:ref/messages",
    handle("message", async ({ c, scope, ref, fields }) => {
      const { body } = parsed(MessageBody, jsonOfForm(fields));
      const message = await sendMessage(c.get("db"), scope, ref, body);
      return { action: "message.sent", target: message.id, notice: "message_sent", anchor: "messages" };
    }),
  );

  portal.post(
    "/deals/:ref/requests",
    handle("request", async ({ c, scope, ref, fields }) => {
      const ask = parsed(DocumentRequestBody, jsonOfForm(fields));
      const request = await requestDocument(c.get("db"), scope, ref, ask);
      return { action: "document.requested", target: request.id, notice: "document_requested", anchor: "requests" };
    }),
  );

  portal.post(
    "/deals/:ref/requests/:id/waive",
    handle("waive", async ({ c, scope, ref }) => {
      const request = await waiveRequest(c.get("db"), scope, ref, c.req.param("id") ?? "");
      return { action: "request.waived", target: request.id, notice: "request_waived", anchor: "requests" };
    }),
  );

  portal.post(
    "/deals/:ref/agreement",
    handle("agreement", async ({ c, scope, ref, form }) => {
      // The part a file input sends (typed as text by the platform's FormData, a File at run time).
      const file: unknown = form.get("agreement");
      if (!(file instanceof File) || (file.size === 0 && file.name === "")) {
        throw new ApiError("invalid_request", "Choose the agreement PDF to upload.", { field: "agreement" });
      }
      const pdf = await file.arrayBuffer();
      checkAgreementPdf(file.type, pdf, "agreement");
      await uploadAgreement(c.get("db"), c.env.DOCUMENTS, scope, ref, pdf);
      return { action: "agreement.uploaded", target: ref, notice: "agreement_uploaded", anchor: "completion" };
    }),
  );
}
