import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/lib/crypto";
import { call } from "../helpers/api";
import { pdfBytes } from "../lender/helpers";
import { acceptedHubLead, dealRow, filesForm, hubCall, hubLead, lenderEvents, requestDocuments, pagesOf } from "./helpers";

describe("client hub: overview", () => {
  it("shows the business, its reference and state, open requests, notifications and each deal's links", async () => {
    const { hub, lead, refA, a, keys } = await hubLead();
    await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id });
    await call("POST", `/v1/deals/${refA}/messages`, { key: keys.a.live, body: { body: "Please send your statements." } });
    const res = await hubCall("GET", hub);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(res.text).toContain("Widgets Ltd");
    expect(res.text).toContain(lead.reference);
    expect(res.text).toContain("Bank statements (last 6 months)");
    expect(res.text).toContain("All business accounts, please");
    expect(res.text).toContain(`${pagesOf(hub)}/deals/${refA}/messages`);
    expect(res.text).toContain(`${pagesOf(hub)}/deals/${refA}/completion`);
    expect(res.text).toContain(`New message about ${refA}`);
    // Deals show by their product label and ref, never by the lender's name.
    expect(res.text).not.toContain("Lender A");
    expect(res.text).not.toContain("Lender B");
  });
});

describe("client hub: uploads against a request", () => {
  it("stores the files, moves the request to uploaded and fires request.fulfilled to the deal's lender", async () => {
    const { hub, lead, refA, a, keys } = await hubLead();
    const request = await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id });
    const page = await hubCall("GET", `${hub}/requests/${request.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('enctype="multipart/form-data"');

    const res = await hubCall("POST", `${hub}/requests/${request.id}`, { multipart: filesForm({ name: "jan.pdf", content: "%PDF-1 jan" }, { name: "feb.pdf", content: "%PDF-1 february" }) });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`${hub}/requests/${request.id}?done=uploaded`);
    const after = await hubCall("GET", res.headers.get("Location")!);
    expect(after.text).toContain("your files were uploaded");
    expect(after.text).toContain("jan.pdf");
    // Sizes in words, never a count of bytes (issue 45 item 10).
    expect(after.text).toContain("<bdi>jan.pdf</bdi> (1 KB, ");
    expect(after.text).not.toMatch(/\d bytes/);
    expect((await hubCall("GET", hub)).text).toContain('<td data-label="Size">1 KB</td>');
    expect(after.text).toMatch(/<strong id="request-status">Uploaded by the client<\/strong>, 2 file\(s\)/);

    const row = await env.DB.prepare("select status, file_count, uploaded_at from document_requests where id = ?").bind(request.id).first<any>();
    expect(row).toMatchObject({ status: "uploaded", file_count: 2 });
    const { results: docs } = await env.DB.prepare("select * from documents where request_id = ? order by filename").bind(request.id).all<any>();
    expect(docs.map((d) => [d.filename, d.source, d.deal_ref, d.document_type, d.state, d.byte_size])).toEqual([
      ["feb.pdf", "client_upload", refA, "bank_statements", "accepted", 15],
      ["jan.pdf", "client_upload", refA, "bank_statements", "accepted", 10],
    ]);
    const stored = await env.DOCUMENTS.get(docs[1].storage_key);
    expect(await stored!.text()).toBe("%PDF-1 jan");
    expect(docs[1].storage_key).toBe(`leads/live/${lead.id}/documents/${docs[1].id}`);

    const events = await lenderEvents(keys.a.live, refA, "request.fulfilled");
    expect(events).toHaveLength(1);
    expect(events[0].data.request).toMatchObject({ id: request.id, item_type: "bank_statements_6m", label: "Bank statements (last 6 months)", file_count: 2, uploaded_at: row.uploaded_at });
    expect(events[0].data.request.files.map((f: any) => f.filename).sort()).toEqual(["feb.pdf", "jan.pdf"]);
    expect(events[0].data.request.files[0]).toMatchObject({ id: expect.stringMatching(/^doc_/), document_type: "bank_statements", content_type: "application/pdf", size_bytes: expect.any(Number) });
    // Lender B's deal of the same lead hears nothing of it.
    expect(await lenderEvents(keys.b.live, (await hubLead()).refB, "request.fulfilled")).toHaveLength(0);

    // A second upload on the still-open request adds to it; the event carries every file of the request.
    const more = await hubCall("POST", `${hub}/requests/${request.id}`, { multipart: filesForm({ name: "mar.pdf", content: "%PDF-1 march" }) });
    expect(more.status).toBe(303);
    const second = await lenderEvents(keys.a.live, refA, "request.fulfilled");
    expect(second).toHaveLength(2);
    expect(second[1].data.request.file_count).toBe(3);
    expect(second[1].data.request.files).toHaveLength(3);

    const overview = await hubCall("GET", hub);
    expect(overview.text).toContain("mar.pdf");
  });
});

describe("client hub: taking back a file sent on a request", () => {
  it("removes the file after its confirm page, tells the lender with document.removed, and asks again once no file is left", async () => {
    const { hub, lead, refA, a, keys, partner } = await hubLead();
    const request = await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id });
    await hubCall("POST", `${hub}/requests/${request.id}`, { multipart: filesForm({ name: "jan.pdf", content: "%PDF-1 jan" }, { name: "wrong.pdf", content: "%PDF-1 wrong" }) });
    const { results: docs } = await env.DB.prepare("select id, filename, storage_key from documents where request_id = ? order by filename").bind(request.id).all<any>();
    const [jan, wrong] = docs;
    const base = pagesOf(hub);
    const confirmPath = `${base}/requests/${request.id}/files/${wrong.id}/remove`;

    const page = await hubCall("GET", `${hub}/requests/${request.id}`);
    expect(page.text).toContain(`href="${confirmPath}"`);
    expect(page.text).toContain(">Remove wrong.pdf</a>");
    const question = await hubCall("GET", `${hub}/requests/${request.id}/files/${wrong.id}/remove`);
    expect(question.status).toBe(200);
    expect(question.text).toContain("Remove wrong.pdf from Bank statements (last 6 months)?");
    expect(question.text).toContain('name="confirmed" value="yes"');
    // Posted without the confirm page's field: the question, nothing removed.
    const unconfirmed = await hubCall("POST", `${hub}/requests/${request.id}/files/${wrong.id}/remove`, { form: {} });
    expect(unconfirmed.status).toBe(303);
    expect(await env.DB.prepare("select id from documents where id = ?").bind(wrong.id).first()).not.toBeNull();

    const done = await hubCall("POST", `${hub}/requests/${request.id}/files/${wrong.id}/remove`, { form: { confirmed: "yes" } });
    expect(done.status).toBe(303);
    expect(done.headers.get("Location")).toBe(`${hub}/requests/${request.id}?done=file_removed`);
    expect((await hubCall("GET", done.headers.get("Location")!)).text).toContain("The file was removed, and the funding provider was told.");
    expect(await env.DB.prepare("select id from documents where id = ?").bind(wrong.id).first()).toBeNull();
    expect(await env.DOCUMENTS.head(wrong.storage_key)).toBeNull();
    expect(await env.DB.prepare("select status, file_count from document_requests where id = ?").bind(request.id).first()).toEqual({ status: "uploaded", file_count: 1 });
    // Off the lender's deal, and the lender is told; the partner is not (it had no event for the client's file).
    const listed = await call("GET", `/v1/deals/${refA}/documents`, { key: keys.a.live });
    expect(listed.body.documents.map((d: any) => d.filename)).toEqual(["jan.pdf"]);
    const removed = await lenderEvents(keys.a.live, refA, "document.removed");
    expect(removed.map((e) => e.data)).toEqual([
      {
        ref: refA,
        reference: expect.any(String),
        test: false,
        payload_mode: "reference",
        document: expect.objectContaining({ id: wrong.id, filename: "wrong.pdf", source: "client_upload", request_id: request.id }),
        document_request: { id: request.id, item_type: "bank_statements_6m", label: "Bank statements (last 6 months)", status: "uploaded", file_count: 1 },
      },
    ]);
    expect(removed[0].data.document).not.toHaveProperty("url");
    expect((await call("GET", `/partner/v1/events?event=document.removed`, { key: partner.live.key })).body.events).toEqual([]);

    // The lender read the files (forwarded): the last one can still be taken back, and the request is asked for again.
    expect((await call("GET", `/v1/deals/${refA}/requests/${request.id}/files`, { key: keys.a.live })).body.status).toBe("forwarded");
    const last = await hubCall("POST", `${hub}/requests/${request.id}/files/${jan.id}/remove`, { form: { confirmed: "yes" } });
    expect(last.status).toBe(303);
    expect(await env.DB.prepare("select status, file_count, uploaded_at, forwarded_at from document_requests where id = ?").bind(request.id).first()).toEqual({
      status: "requested",
      file_count: 0,
      uploaded_at: null,
      forwarded_at: null,
    });
    expect((await lenderEvents(keys.a.live, refA, "document.removed")).at(-1).data.document_request).toMatchObject({ status: "requested", file_count: 0 });
    // Asked again: the upload form is back, and a file already gone is the plain 404 page.
    expect((await hubCall("GET", `${hub}/requests/${request.id}`)).text).toContain('enctype="multipart/form-data"');
    expect((await hubCall("POST", `${hub}/requests/${request.id}/files/${jan.id}/remove`, { form: { confirmed: "yes" } })).status).toBe(404);
    expect((await hubCall("GET", `${hub}/requests/${request.id}/files/${jan.id}/remove`)).status).toBe(404);
  });

  it("keeps the files of a request the provider waived, and of a deal it declined: no Remove, and a forced post is refused on the page", async () => {
    const { hub, lead, refA, a, keys } = await hubLead();
    const request = await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id });
    await hubCall("POST", `${hub}/requests/${request.id}`, { multipart: filesForm({ name: "jan.pdf", content: "%PDF-1 jan" }) });
    const doc = await env.DB.prepare("select id from documents where request_id = ?").bind(request.id).first<{ id: string }>();
    expect((await call("POST", `/v1/deals/${refA}/requests/${request.id}/waive`, { key: keys.a.live })).status).toBe(200);

    expect((await hubCall("GET", `${hub}/requests/${request.id}`)).text).not.toContain("/remove");
    const forced = await hubCall("POST", `${hub}/requests/${request.id}/files/${doc!.id}/remove`, { form: { confirmed: "yes" } });
    expect(forced.status).toBe(409);
    expect(forced.text).toContain("no longer needs this document");
    expect(await env.DB.prepare("select id from documents where id = ?").bind(doc!.id).first()).toEqual({ id: doc!.id });
    expect(await lenderEvents(keys.a.live, refA, "document.removed")).toEqual([]);

    // The provider declines the deal: the files of its other request are what it decided on.
    const second = await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id });
    await hubCall("POST", `${hub}/requests/${second.id}`, { multipart: filesForm({ name: "feb.pdf", content: "%PDF-1 feb" }) });
    const kept = await env.DB.prepare("select id from documents where request_id = ?").bind(second.id).first<{ id: string }>();
    expect((await hubCall("GET", `${hub}/requests/${second.id}`)).text).toContain(`/files/${kept!.id}/remove`);
    expect((await call("POST", `/v1/deals/${refA}/status`, { key: keys.a.live, body: { status: "declined" } })).status).toBe(200);
    expect((await hubCall("GET", `${hub}/requests/${second.id}`)).text).not.toContain("/remove");
    const decided = await hubCall("POST", `${hub}/requests/${second.id}/files/${kept!.id}/remove`, { form: { confirmed: "yes" } });
    expect(decided.status).toBe(409);
    expect(decided.text).toContain("has made its decision on this application");
    expect(await env.DB.prepare("select id from documents where id = ?").bind(kept!.id).first()).toEqual({ id: kept!.id });
    expect(await lenderEvents(keys.a.live, refA, "document.removed")).toEqual([]);

    // Another lead's hub cannot reach the file: the plain 404 page.
    const other = await hubLead();
    expect((await hubCall("POST", `${other.hub}/requests/${request.id}/files/${doc!.id}/remove`, { form: { confirmed: "yes" } })).status).toBe(404);
  });
});

describe("client hub: messages", () => {
  it("shows the thread and sends a reply as borrower_to_lender, firing message.created with the contact's email", async () => {
    const { hub, refA, keys } = await hubLead();
    await call("POST", `/v1/deals/${refA}/messages`, { key: keys.a.live, body: { body: "Can you confirm your trading address?" } });
    const page = await hubCall("GET", `${hub}/deals/${refA}/messages`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Can you confirm your trading address?");

    const res = await hubCall("POST", `${hub}/deals/${refA}/messages`, { form: { subject: "Address", body: "Yes: 1 High Street, London." } });
    expect(res.status).toBe(303);
    // The write's D1 bookmark rides in the hub's own cookie, so the next page reads at least from there (docs/architecture.md).
    const bookmark = /rfs_bookmark=([0-9a-f-]+);[^,]*Path=\/hub/i.exec(res.headers.get("Set-Cookie") ?? "")?.[1];
    expect(bookmark).toBeDefined();
    const after = await hubCall("GET", res.headers.get("Location")!.split("#")[0], { headers: { Cookie: `rfs_bookmark=${bookmark}` } });
    expect(after.text).toContain("Your message was sent.");
    expect(after.text).toContain("Yes: 1 High Street, London.");

    const thread = await call("GET", `/v1/deals/${refA}/messages`, { key: keys.a.live });
    expect(thread.body.messages.map((m: any) => m.direction)).toEqual(["lender_to_borrower", "borrower_to_lender"]);
    const reply = thread.body.messages[1];
    const events = await lenderEvents(keys.a.live, refA, "message.created");
    expect(events).toHaveLength(1);
    expect(events[0].data.message).toEqual({ id: reply.id, direction: "borrower_to_lender", from_email: "ada@example.com", subject: "Address", body: "Yes: 1 High Street, London.", created_at: reply.created_at });
  });

  it("tells the business of a lender's message and of the agreement with hub deep links", async () => {
    const { lead, refA, keys } = await hubLead();
    await call("POST", `/v1/deals/${refA}/messages`, { key: keys.a.live, body: { body: "Hello" } });
    await call("PUT", `/v1/deals/${refA}/agreement`, { key: keys.a.live, rawBody: pdfBytes(), contentType: "application/pdf" });
    const { results } = await env.DB.prepare("select kind, deal_ref, deep_link from client_notifications where lead_id = ? order by created_at, rowid").bind(lead.id).all<any>();
    expect(results).toEqual([
      { kind: "message", deal_ref: refA, deep_link: `/deals/${refA}/messages` },
      { kind: "agreement", deal_ref: refA, deep_link: `/deals/${refA}/completion` },
    ]);
  });
});

describe("client hub: completion", () => {
  it("takes masked account details once, then signs the uploaded agreement, firing both events", async () => {
    const { hub, refA, keys } = await acceptedHubLead();
    const page = await hubCall("GET", `${hub}/deals/${refA}/completion`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('name="sort_code"');
    expect(page.text).toContain("The agreement is not ready yet");

    const res = await hubCall("POST", `${hub}/deals/${refA}/completion/account`, { form: { account_holder_name: "Widgets Ltd", sort_code: "12-34-56", account_number: "31926819" } });
    expect(res.status).toBe(303);
    const after = await hubCall("GET", res.headers.get("Location")!);
    expect(after.text).toContain("Widgets Ltd ••••6819");
    expect(after.text).not.toContain("31926819");
    const deal = await dealRow(refA);
    expect(deal.account_summary).toBe("Widgets Ltd ••••6819");
    expect(JSON.stringify(deal)).not.toContain("31926819");

    const submitted = await lenderEvents(keys.a.live, refA, "deal.account_submitted");
    expect(submitted).toHaveLength(1);
    expect(submitted[0].data.completion).toEqual({
      account_submitted: true,
      account_submitted_at: deal.account_submitted_at,
      account_summary: "Widgets Ltd ••••6819",
      agreement_uploaded: false,
      agreement_uploaded_at: null,
      signed: false,
      signed_at: null,
      signature_verification: null,
    });

    await call("PUT", `/v1/deals/${refA}/agreement`, { key: keys.a.live, rawBody: pdfBytes(), contentType: "application/pdf" });
    const withAgreement = await hubCall("GET", `${hub}/deals/${refA}/completion`);
    const link = withAgreement.text.match(/href="(http:\/\/localhost:8787\/files\/[^"]+)"/)![1].replace(/&amp;/g, "&");
    const download = await call("GET", new URL(link).pathname + new URL(link).search);
    expect(download.status).toBe(200);
    expect(download.text).toContain("%PDF-1.7");
    expect(withAgreement.text).toContain('name="full_name"');

    const signed = await hubCall("POST", `${hub}/deals/${refA}/completion/signature`, { form: { full_name: "  Ada   Lovelace ", consent: "yes" } });
    expect(signed.status).toBe(303);
    const done = await hubCall("GET", signed.headers.get("Location")!);
    expect(done.text).toContain("You signed the agreement.");
    const agreementKey = (await env.DB.prepare("select agreement_key from deals where ref = ?").bind(refA).first<{ agreement_key: string }>())!.agreement_key;
    const etag = (await env.DOCUMENTS.head(agreementKey))!.etag;
    const final = await call("GET", `/v1/deals/${refA}/completion`, { key: keys.a.live });
    expect(final.body.completion).toMatchObject({ account_submitted: true, agreement_uploaded: true, signed: true, signature_verification: `typed_name:${await sha256Hex(`Ada Lovelace\n${etag}`)}` });
    const events = await lenderEvents(keys.a.live, refA, "deal.agreement_signed");
    expect(events).toHaveLength(1);
    expect(events[0].data.completion).toEqual(final.body.completion);
  });
});
