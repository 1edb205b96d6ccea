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

  it("reports In review, and declines on its own confirm page with the same events as POST /v1/deals/{ref}/status", async () => {
    const viaPortal = await lenderAtLiveDeal();
    const { session, refA } = viaPortal;
    expect((await portal("POST", `/deals/${refA}/status`, { session, form: { status: "in_review" } })).status).toBe(303);
    // Decline is a link to its question, never a button that decides.
    const deal = (await portal("GET", `/deals/${refA}`, { session })).text;
    expect(deal).toContain(`href="/portal/deals/${refA}/decline"`);
    expect(deal).not.toContain('name="reasons"');
    // Posted as the old status form did (a stale page, a script): sent to the question, nothing written.
    const stale = await portal("POST", `/deals/${refA}/status`, { session, form: { status: "declined", reasons: "affordability" } });
    expect(stale.status).toBe(303);
    expect(stale.location).toBe(`/portal/deals/${refA}/decline`);
    const question = await portal("GET", `/deals/${refA}/decline`, { session });
    expect(question.status).toBe(200);
    expect(question.text).toContain("Decline this deal?");
    expect(question.text).toContain('name="reasons" value="trading_history_too_short"');
    expect(question.text).toContain('name="confirmed" value="yes"');
    expect(question.text).toContain(`href="/portal/deals/${refA}"`);
    // Without the confirmation field: back to the question, nothing declined.
    const unconfirmed = await portal("POST", `/deals/${refA}/decline`, { session, form: { reasons: "affordability" } });
    expect(unconfirmed.location).toBe(`/portal/deals/${refA}/decline`);
    expect((await writtenFor(refA, null)).deal).toMatchObject({ lender_status: "in_review" });

    const declined = { confirmed: "yes", reasons: ["revenue_below_minimum", "documents_incomplete"], note: "Outside appetite" };
    const done = await portal("POST", `/deals/${refA}/decline`, { session, form: declined });
    expect(done.status).toBe(303);
    expect(done.location).toBe(`/portal/deals/${refA}`);
    const viaApi = await lenderAtLiveDeal();
    await call("POST", `/v1/deals/${viaApi.refA}/status`, { key: viaApi.keys.a.live, body: { status: "in_review" } });
    await call("POST", `/v1/deals/${viaApi.refA}/status`, {
      key: viaApi.keys.a.live,
      body: { status: "declined", reasons: [{ code: "revenue_below_minimum", detail: "Outside appetite", shareable: false }, { code: "documents_incomplete" }] },
    });
    expect(await eventShapes(refA, viaPortal.lead.id)).toEqual(await eventShapes(viaApi.refA, viaApi.lead.id));
    expect((await writtenFor(refA, null)).deal).toMatchObject({ lender_status: "declined", status: "declined" });
    expect(await auditOf(session)).toEqual([
      { action: "deal.status_reported", target: refA, environment: "live" },
      { action: "deal.status_reported", target: refA, environment: "live" },
    ]);
    // A declined deal has no question any more: its page shows the outcome.
    expect((await portal("GET", `/deals/${refA}/decline`, { session })).location).toBe(`/portal/deals/${refA}`);
  });

  it("refuses a decline without a reason code (never a note alone), and an unknown code, beside the reasons, keeping what was typed", async () => {
    const { session, refA } = await lenderAtLiveDeal();
    const forms: Record<string, string>[] = [
      { confirmed: "yes", note: "Outside appetite" },
      { confirmed: "yes", reasons: "too_risky", note: "Outside appetite" },
    ];
    for (const form of forms) {
      const refused = await portal("POST", `/deals/${refA}/decline`, { session, form });
      expect(refused.status).toBe(form.reasons ? 422 : 400);
      expect(refused.text).toMatch(/id="reasons-error"[^>]*>[^<]*(Choose at least one reason|Choose the reasons from the list)/);
      expect(refused.text).toContain(">Outside appetite</textarea>");
    }
    expect((await writtenFor(refA, null)).deal).toMatchObject({ lender_status: "new" });
    const form = { confirmed: "yes", reasons: "adverse_credit", note: "Two CCJs in 2025", shareable: "yes" };
    expect((await portal("POST", `/deals/${refA}/decline`, { session, form })).status).toBe(303);
    const after = (await portal("GET", `/deals/${refA}`, { session })).text;
    expect(after).toMatch(/data-reason="adverse_credit">Adverse credit history<span class="muted"> \(Two CCJs in 2025, shared with the partner\)/);
    const deals = (await portal("GET", "/deals?reasons=adverse_credit", { session })).text;
    expect(deals).toContain(`data-deal="${refA}"`);
    expect((await portal("GET", "/deals?reasons=affordability", { session })).text).not.toContain(`data-deal="${refA}"`);
    expect((await portal("GET", "/deals?reasons=too_risky", { session })).status).toBe(400);
  });

  it("refuses Funded, in the person's words, until the business accepted the offer: a live deal with an offer made, and a test deal with no acceptance, agreement or signature", async () => {
    const { session, refA, lead, keys } = await lenderAtLiveDeal();
    await makeOffer(keys.a.live, refA, firmOffer());
    const before = await writtenFor(refA, lead.id);
    expect((await portal("GET", `/deals/${refA}`, { session })).text).not.toContain(`href="/portal/deals/${refA}/funded"`);
    const page = await portal("GET", `/deals/${refA}/funded`, { session });
    expect(page.status).toBe(409);
    expect(page.text).toContain("You can report this deal funded only after the business accepts your offer.");
    expect(page.text).not.toContain('name="funded_amount"');
    const post = await portal("POST", `/deals/${refA}/funded`, { session, form: { confirmed: "yes", funded_amount: "40000", funded_on: new Date().toISOString().slice(0, 10) } });
    expect(post.status).toBe(409);
    expect(post.text).toContain("only after the business accepts your offer");
    expect(await writtenFor(refA, lead.id)).toEqual(before);
    expect(await auditOf(session)).toEqual([]);

    const lender = await lenderWithKeys();
    const made = await call("POST", "/v1/test/deals", { key: lender.sandbox.key, body: {} });
    const testRef = made.body.ref as string;
    await makeOffer(lender.sandbox.key, testRef, firmOffer());
    const member = await signedInMember(lender.organisation.id, "member");
    const refused = await portal("POST", `/deals/${testRef}/funded`, { session: member, form: { confirmed: "yes", funded_amount: "40000", funded_on: new Date().toISOString().slice(0, 10) } });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain("only after the business accepts your offer");
    expect((await call("GET", `/v1/deals/${testRef}`, { key: lender.sandbox.key })).body.lender_status).toBe("offer_made");
  });

  it("reports funded on its confirm page after the accepted offer: the amount and the day, open requests warned about, the lead funded on that day", async () => {
    const { session, refA, lead, keys, partner } = await lenderAtLiveDeal();
    const offer = await makeOffer(keys.a.live, refA, firmOffer());
    expect((await call("POST", `/partner/v1/leads/${lead.id}/offers/${offer.id}/acceptance`, { key: partner.live.key })).status).toBe(200);
    await call("POST", `/v1/deals/${refA}/requests`, { key: keys.a.live, body: { item_type: "vat_returns" } });
    expect((await portal("GET", `/deals/${refA}`, { session })).text).toContain(`href="/portal/deals/${refA}/funded"`);
    // The old one-click post is sent to the question.
    expect((await portal("POST", `/deals/${refA}/status`, { session, form: { status: "funded", funded_amount: "40000" } })).location).toBe(`/portal/deals/${refA}/funded`);
    const page = await portal("GET", `/deals/${refA}/funded`, { session });
    expect(page.status).toBe(200);
    expect(page.text).toContain("Report this deal funded?");
    expect(page.text).toMatch(/id="funding-warnings"[\s\S]*One document request is[^<]*still open: Recent VAT returns/);
    expect(page.text).toMatch(/name="funded_amount" required="" value="40000"/);
    expect(page.text).toContain('name="funded_on"');

    const before = await writtenFor(refA, lead.id);
    const tooMuch = await portal("POST", `/deals/${refA}/funded`, { session, form: { confirmed: "yes", funded_amount: "999,999,999", funded_on: "2020-01-01" } });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.text).toMatch(/<span class="field-error" id="funded_on-error" role="alert">[^<]*before the deal arrived/);
    const future = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const later = await portal("POST", `/deals/${refA}/funded`, { session, form: { confirmed: "yes", funded_amount: "40,000", funded_on: future } });
    expect(later.status).toBe(400);
    expect(later.text).toMatch(/id="funded_on-error"[^>]*>[^<]*cannot be in the future/);
    const over = await portal("POST", `/deals/${refA}/funded`, { session, form: { confirmed: "yes", funded_amount: "999,999,999", funded_on: new Date().toISOString().slice(0, 10) } });
    expect(over.status).toBe(422);
    expect(over.text).toMatch(/<span class="field-error" id="funded_amount-error" role="alert">[^<]*40000/);
    expect(over.text).toContain('value="999,999,999"');
    expect(await writtenFor(refA, lead.id)).toEqual(before);
    expect(await auditOf(session)).toEqual([]);

    const today = new Date().toISOString().slice(0, 10);
    // The kit's money rule, as every amount of the portal: "£40k" is 40,000 (issue 45 item 7).
    const res = await portal("POST", `/deals/${refA}/funded`, { session, form: { confirmed: "yes", funded_amount: "£40k", funded_on: today } });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/portal/deals/${refA}`);
    const deal = await call("GET", `/v1/deals/${refA}`, { key: keys.a.live });
    expect(deal.body).toMatchObject({ lender_status: "funded", status: "funded", funded_amount: 40_000 });
    expect((await eventsFor(lead.id)).find((e) => e.event === "lead.funded")?.detail).toMatchObject({ funding_outcome: { funded_amount: 40_000, funded_at: `${today}T00:00:00.000Z` } });
    expect(await auditOf(session)).toEqual([{ action: "deal.status_reported", target: refA, environment: "live" }]);
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

    // Refusals of the In review form (its one field is hidden): said at the form, with the API's status.
    const approved = await portal("POST", `/deals/${refA}/status`, { session, form: { status: "approved" } });
    expect(approved.status).toBe(400);
    expect(approved.text).toContain('id="status-form-error"');

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
