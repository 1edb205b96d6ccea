import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createApp } from "../../../src/app";
import { beforeEach, describe, expect, it } from "vitest";
import { call } from "../../helpers/api";
import { freshFormToken, portal, signedInMember } from "../../helpers/portal";
import { createOrganisation, lenderWithKeys } from "../../helpers/seed";
import { OPEN_REQUESTS_PER_DEAL } from "../../../src/domain/documents/types";
import { firmOffer, makeOffer, pdfBytes } from "../../lender/helpers";
import { eventsFor } from "../../routing/helpers";
import { receiverBucket, register, settleOutbox } from "../../webhooks/support/webhooks";
import { auditOf, lenderAtLiveDeal, postAgreement, writtenFor } from "./support";
import { inData } from "../../helpers/data-db";

// Events other files of this worker left undispatched must not reach this file's dispatch.
beforeEach(settleOutbox);

/** What a deal's and its lead's events say, without the ids and times that differ between two runs. */
async function eventShapes(ref: string, leadId: string) {
  const strip = (detail: Record<string, unknown>) => JSON.parse(JSON.stringify(detail).replace(/"(DL|RF|lead|off|msg|dreq)[-_][A-Za-z0-9-]+"/g, '"<id>"').replace(/"\d{4}-\d{2}-\d{2}T[^"]+"/g, '"<time>"'));
  return [...(await eventsFor(ref)), ...(await eventsFor(leadId))].map((e) => ({ api: e.api, event: e.event, subject_type: e.subject_type, detail: strip(e.detail) }));
}

/** The offer form as a member fills it in: text fields, a date for the expiry. */
const offerForm = (overrides: Record<string, string> = {}) => ({
  maturity: "firm",
  amount: "40000",
  kind: "business_loan",
  annual_rate_pct: "11.5",
  factor_rate: "",
  term_months: "24",
  fees: "800",
  total_repayment: "45900",
  expires_at: new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10),
  notes: "Subject to final checks",
  ...overrides,
});

describe("lender portal actions", () => {
  it("makes a firm offer with the API's service: the same events as POST /v1/deals/{ref}/offers, audited, then back to the deal", async () => {
    const viaPortal = await lenderAtLiveDeal();
    const res = await portal("POST", `/deals/${viaPortal.refA}/offers`, { session: viaPortal.session, form: offerForm() });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/portal/deals/${viaPortal.refA}`);
    const offers = await call("GET", `/v1/deals/${viaPortal.refA}/offers`, { key: viaPortal.keys.a.live });
    expect(offers.body.offers).toEqual([expect.objectContaining({ maturity: "firm", amount: 40_000, annual_rate_pct: 11.5, term_months: 24, status: "presented", notes: "Subject to final checks" })]);
    expect(offers.body.offers[0].expires_at).toMatch(/T23:59:59/);

    const viaApi = await lenderAtLiveDeal();
    const api = await call("POST", `/v1/deals/${viaApi.refA}/offers`, { key: viaApi.keys.a.live, body: firmOffer() });
    expect(api.status).toBe(201);
    const shapes = await eventShapes(viaPortal.refA, viaPortal.lead.id);
    expect(shapes).toEqual(await eventShapes(viaApi.refA, viaApi.lead.id));
    expect(shapes.map((e) => e.event)).toContain("lead.offers_available");
    expect(await auditOf(viaPortal.session)).toEqual([{ action: "offer.made", target: offers.body.offers[0].id, environment: "live" }]);

    const page = await portal("GET", `/deals/${viaPortal.refA}?notice=offer_made`, { session: viaPortal.session });
    expect(page.text).toContain("Your offer was made");
    expect(page.text).toContain(`data-offer="${offers.body.offers[0].id}"`);
  });

  it("turns the offer's events into webhook deliveries after the write, as the API route does", async () => {
    const { session, refA, a, keys } = await lenderAtLiveDeal();
    await register("lender", keys.a.live, { url: receiverBucket().url() });
    const ctx = createExecutionContext();
    const form = new URLSearchParams({ ...offerForm(), _form_token: await freshFormToken(session) });
    const res = await createApp().request(
      `http://api.test/portal/deals/${refA}/offers`,
      { method: "POST", headers: { Cookie: session.cookie, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded" }, body: form.toString() },
      { ...env, DISPATCH_AFTER_WRITE: "true" },
      ctx,
    );
    expect(res.status).toBe(303);
    await waitOnExecutionContext(ctx);
    const deliveries = await env.DB.prepare(
      "select e.event, e.dispatched_at from webhook_deliveries d join events e on e.id = d.event_id where e.organisation_id = ? and e.subject_id = ?",
    )
      .bind(a.id, refA)
      .all<{ event: string; dispatched_at: string | null }>();
    // The deal's earlier deal.created, still in the outbox, goes out with it.
    expect(deliveries.results.map((d) => d.event).sort()).toEqual(["deal.created", "deal.updated"]);
    expect(deliveries.results.every((d) => d.dispatched_at !== null)).toBe(true);
  });

  it("reports status with the API's service: in review, then declined, with the same events as POST /v1/deals/{ref}/status", async () => {
    const viaPortal = await lenderAtLiveDeal();
    expect((await portal("POST", `/deals/${viaPortal.refA}/status`, { session: viaPortal.session, form: { status: "in_review", note: "", funded_amount: "" } })).status).toBe(303);
    // The decline form picks codes from the list; the note rides on the first, shared only when ticked.
    const declined = { status: "declined", reasons: ["revenue_below_minimum", "documents_incomplete"], note: "Outside appetite", funded_amount: "" };
    expect((await portal("POST", `/deals/${viaPortal.refA}/status`, { session: viaPortal.session, form: declined })).status).toBe(303);
    const viaApi = await lenderAtLiveDeal();
    await call("POST", `/v1/deals/${viaApi.refA}/status`, { key: viaApi.keys.a.live, body: { status: "in_review" } });
    await call("POST", `/v1/deals/${viaApi.refA}/status`, {
      key: viaApi.keys.a.live,
      body: { status: "declined", reasons: [{ code: "revenue_below_minimum", detail: "Outside appetite", shareable: false }, { code: "documents_incomplete" }] },
    });
    expect(await eventShapes(viaPortal.refA, viaPortal.lead.id)).toEqual(await eventShapes(viaApi.refA, viaApi.lead.id));
    expect((await writtenFor(viaPortal.refA, null)).deal).toMatchObject({ lender_status: "declined", status: "declined" });
    expect(await auditOf(viaPortal.session)).toEqual([
      { action: "deal.status_reported", target: viaPortal.refA, environment: "live" },
      { action: "deal.status_reported", target: viaPortal.refA, environment: "live" },
    ]);
  });

  it("refuses a decline without a reason code (never a note alone), and an unknown code, beside the reasons; the deal page lists the codes", async () => {
    const { session, refA } = await lenderAtLiveDeal();
    const html = (await portal("GET", `/deals/${refA}`, { session })).text;
    expect(html).toContain('name="reasons" value="trading_history_too_short"');
    expect(html).toContain('name="note"');
    expect(html).not.toContain('name="reason"');
    const forms: Record<string, string>[] = [
      { status: "declined", note: "Outside appetite", funded_amount: "" },
      { status: "declined", reasons: "too_risky", funded_amount: "" },
    ];
    for (const form of forms) {
      const refused = await portal("POST", `/deals/${refA}/status`, { session, form });
      expect(refused.status).toBe(form.reasons ? 422 : 400);
      expect(refused.text).toMatch(/id="reasons-error"[^>]*>[^<]*(Choose at least one reason|Choose the reasons from the list)/);
    }
    expect((await writtenFor(refA, null)).deal).toMatchObject({ lender_status: "new" });
    const form = { status: "declined", reasons: "adverse_credit", note: "Two CCJs in 2025", shareable: "yes", funded_amount: "" };
    expect((await portal("POST", `/deals/${refA}/status`, { session, form })).status).toBe(303);
    const after = (await portal("GET", `/deals/${refA}`, { session })).text;
    expect(after).toMatch(/data-reason="adverse_credit">Adverse credit history<span class="muted"> \(Two CCJs in 2025, shared with the partner\)/);
    const deals = (await portal("GET", "/deals?reasons=adverse_credit", { session })).text;
    expect(deals).toContain(`data-deal="${refA}"`);
    expect((await portal("GET", "/deals?reasons=affordability", { session })).text).not.toContain(`data-deal="${refA}"`);
    expect((await portal("GET", "/deals?reasons=too_risky", { session })).status).toBe(400);
  });

  it("reports funded with the amount after an offer: the lead is funded, as through the API", async () => {
    const { session, refA, lead, keys } = await lenderAtLiveDeal();
    await makeOffer(keys.a.live, refA, firmOffer());
    const res = await portal("POST", `/deals/${refA}/status`, { session, form: { status: "funded", reason: "", funded_amount: "40,000" } });
    expect(res.status).toBe(303);
    const deal = await call("GET", `/v1/deals/${refA}`, { key: keys.a.live });
    expect(deal.body).toMatchObject({ lender_status: "funded", status: "funded", funded_amount: 40_000 });
    expect((await eventsFor(lead.id)).find((e) => e.event === "lead.funded")?.detail).toMatchObject({ funding_outcome: { funded_amount: 40_000 } });
  });

  it("refuses a funded amount above the offer beside the field with 422, as the API does, writing nothing", async () => {
    const { session, refA, lead, keys } = await lenderAtLiveDeal();
    await makeOffer(keys.a.live, refA, firmOffer());
    const before = await writtenFor(refA, lead.id);
    const res = await portal("POST", `/deals/${refA}/status`, { session, form: { status: "funded", reason: "", funded_amount: "999,999,999" } });
    expect(res.status).toBe(422);
    expect(res.text).toMatch(/<span class="field-error" id="funded_amount-error" role="alert">[^<]*40000/);
    expect(res.text).toContain('value="999,999,999"');
    expect(await writtenFor(refA, lead.id)).toEqual(before);
    expect(await auditOf(session)).toEqual([]);
  });

  it("refuses a document request over the open limit with 422 at the form, as the API does", async () => {
    const { session, refA, keys } = await lenderAtLiveDeal();
    for (let i = 0; i < OPEN_REQUESTS_PER_DEAL; i++) await call("POST", `/v1/deals/${refA}/requests`, { key: keys.a.live, body: { item_type: "other", note: `item ${i}` } });
    const res = await portal("POST", `/deals/${refA}/requests`, { session, form: { item_type: "vat_returns", note: "" } });
    expect(res.status).toBe(422);
    expect(res.text).toContain('id="request-form-error"');
    expect((await call("GET", `/v1/deals/${refA}/requests`, { key: keys.a.live })).body.count).toBe(OPEN_REQUESTS_PER_DEAL);
    expect(await auditOf(session)).toEqual([]);
  });

  it("sends a message and asks for a document with the API's services: the client is told the same way", async () => {
    const { session, refA, refB, keys } = await lenderAtLiveDeal();
    expect((await portal("POST", `/deals/${refA}/messages`, { session, form: { body: "Please send your VAT returns." } })).status).toBe(303);
    expect((await portal("POST", `/deals/${refA}/requests`, { session, form: { item_type: "vat_returns", note: "The last four quarters" } })).status).toBe(303);
    await call("POST", `/v1/deals/${refB}/messages`, { key: keys.b.live, body: { body: "Please send your VAT returns." } });
    await call("POST", `/v1/deals/${refB}/requests`, { key: keys.b.live, body: { item_type: "vat_returns", note: "The last four quarters" } });
    const notifications = async (ref: string) =>
      (await inData.prepare("select kind, subject, deep_link from client_notifications where deal_ref = ? order by created_at, rowid").bind(ref).all<any>()).results.map((n) => ({
        ...n,
        subject: n.subject.replace(ref, "<ref>"),
        deep_link: n.deep_link.replace(ref, "<ref>").replace(/dreq_\w+/, "<id>"),
      }));
    expect(await notifications(refA)).toEqual(await notifications(refB));
    expect((await notifications(refA)).map((n) => n.kind)).toEqual(["message", "document_request"]);
    const messages = await call("GET", `/v1/deals/${refA}/messages`, { key: keys.a.live });
    expect(messages.body.messages).toEqual([expect.objectContaining({ direction: "lender_to_borrower", body: "Please send your VAT returns." })]);
    const requests = await call("GET", `/v1/deals/${refA}/requests`, { key: keys.a.live });
    expect(requests.body.requests).toEqual([expect.objectContaining({ item_type: "vat_returns", note: "The last four quarters", status: "requested" })]);
    expect(await auditOf(session)).toEqual([
      { action: "message.sent", target: messages.body.messages[0].id, environment: "live" },
      { action: "document.requested", target: requests.body.requests[0].id, environment: "live" },
    ]);

    // Waiving it: once; a second time is refused beside the requests (409) and not audited again.
    const id = requests.body.requests[0].id;
    expect((await portal("POST", `/deals/${refA}/requests/${id}/waive`, { session, form: { confirmed: "yes" } })).status).toBe(303);
    const again = await portal("POST", `/deals/${refA}/requests/${id}/waive`, { session, form: { confirmed: "yes" } });
    expect(again.status).toBe(409);
    expect(again.text).toContain('id="waive-form-error"');
    expect((await call("GET", `/v1/deals/${refA}/requests`, { key: keys.a.live })).body.requests[0].status).toBe("waived");
    expect((await auditOf(session)).map((a) => a.action)).toEqual(["message.sent", "document.requested", "request.waived"]);
    expect((await portal("POST", `/deals/${refA}/requests/dreq_nosuch/waive`, { session, form: { confirmed: "yes" } })).status).toBe(404);
  });

  it("uploads the agreement as a multipart form with the API's service, and shows it on completion", async () => {
    const { session, refA, keys } = await lenderAtLiveDeal();
    const res = await postAgreement(session, refA, { bytes: pdfBytes(), type: "application/pdf", name: "agreement.pdf" });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/portal/deals/${refA}?notice=agreement_uploaded`);
    const completion = await call("GET", `/v1/deals/${refA}/completion`, { key: keys.a.live });
    expect(completion.body.completion).toMatchObject({ agreement_uploaded: true, signed: false });
    const stored = await env.DOCUMENTS.get((await writtenFor(refA, null)).deal!.agreement_key as string);
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(pdfBytes());
    expect((await writtenFor(refA, null)).notifications).toBe(1);
    expect(await auditOf(session)).toEqual([{ action: "agreement.uploaded", target: refA, environment: "live" }]);
    expect((await portal("GET", `/deals/${refA}`, { session })).text).toMatch(/<td data-completion="agreement">yes, \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC<\/td>/);
  });

  it("refuses bad input beside the field with the API's status, writing nothing and auditing nothing", async () => {
    const { session, refA, lead } = await lenderAtLiveDeal();
    const before = await writtenFor(refA, lead.id);
    const refusals: [string, Record<string, string>, number, string][] = [
      ["offers", offerForm({ annual_rate_pct: "" }), 400, "annual_rate_pct"],
      ["offers", offerForm({ amount: "lots" }), 400, "amount"],
      ["offers", offerForm({ expires_at: "2020-01-01" }), 400, "expires_at"],
      ["offers", offerForm({ maturity: "binding" }), 400, "maturity"],
      ["status", { status: "in_review", funded_amount: "5000" }, 400, "funded_amount"],
      ["status", { status: "approved" }, 400, "status"],
      ["messages", { body: "   " }, 400, "body"],
      ["requests", { item_type: "passport_scan" }, 400, "item_type"],
    ];
    for (const [action, form, status, field] of refusals) {
      const res = await portal("POST", `/deals/${refA}/${action}`, { session, form });
      expect(res.status, `${action} ${field}`).toBe(status);
      expect(res.text, `${action} ${field}`).toMatch(new RegExp(`<span class="field-error" id="${field}-error" role="alert">`));
      expect(res.text, `${action} ${field}`).toContain(`aria-describedby="${field}-error"`);
    }
    // A refusal puts back what was typed.
    const typed = await portal("POST", `/deals/${refA}/offers`, { session, form: offerForm({ amount: "lots", notes: "keep me" }) });
    expect(typed.text).toContain(">keep me</textarea>");

    // Refusals about the deal rather than a field: said at the form, with the API's status.
    const funded = await portal("POST", `/deals/${refA}/status`, { session, form: { status: "funded", funded_amount: "40000" } });
    expect(funded.status).toBe(409);
    expect(funded.text).toContain('id="status-form-error"');

    const notPdf = await postAgreement(session, refA, { bytes: new TextEncoder().encode("hello"), type: "application/pdf", name: "agreement.pdf" });
    expect(notPdf.status).toBe(400);
    expect(notPdf.text).toContain('id="agreement-error"');
    expect((await postAgreement(session, refA, { bytes: pdfBytes(), type: "text/plain", name: "agreement.txt" })).status).toBe(415);
    expect((await postAgreement(session, refA, null)).status).toBe(400);

    expect(await writtenFor(refA, lead.id)).toEqual(before);
    expect(await auditOf(session)).toEqual([]);
  });

  it("answers 404 to actions on another lender's deal, on a deal of the other environment, and for a partner's member, writing nothing", async () => {
    const { session, refA, refB, lead } = await lenderAtLiveDeal();
    const before = { a: await writtenFor(refA, lead.id), b: await writtenFor(refB, lead.id) };
    expect((await portal("POST", `/deals/${refB}/offers`, { session, form: offerForm() })).status).toBe(404);
    expect((await portal("POST", `/deals/${refB}/messages`, { session, form: { body: "hello" } })).status).toBe(404);
    expect((await portal("POST", `/deals/${refB}/status`, { session, form: { status: "in_review" } })).status).toBe(404);
    expect((await portal("POST", `/deals/${refB}/requests`, { session, form: { item_type: "vat_returns" } })).status).toBe(404);
    expect((await postAgreement(session, refB, { bytes: pdfBytes(), type: "application/pdf", name: "a.pdf" })).status).toBe(404);

    await portal("POST", "/environment", { session, form: { environment: "sandbox" } });
    expect((await portal("POST", `/deals/${refA}/offers`, { session, form: offerForm() })).status).toBe(404);
    expect((await portal("POST", `/deals/${refA}/messages`, { session, form: { body: "hello" } })).status).toBe(404);

    const partner = await signedInMember((await createOrganisation("partner")).id, "admin");
    expect((await portal("POST", `/deals/${refA}/offers`, { session: partner, form: offerForm() })).status).toBe(404);

    // A member of another lender, in live too.
    const stranger = await lenderWithKeys();
    const strangerSession = await signedInMember(stranger.organisation.id, "member");
    await portal("POST", "/environment", { session: strangerSession, form: { environment: "live" } });
    expect((await portal("POST", `/deals/${refA}/status`, { session: strangerSession, form: { status: "in_review" } })).status).toBe(404);

    expect({ a: await writtenFor(refA, lead.id), b: await writtenFor(refB, lead.id) }).toEqual(before);
    expect(await auditOf(session)).toEqual([]);
    expect(await auditOf(partner)).toEqual([]);
  });
});
