import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, SANDBOX } from "../helpers/api";
import { expectProblem, partnerWithKeys } from "../helpers/seed";
import { completeUkLead, createLead } from "../leads/helpers";
import { bytes, ofxV1Bank, pdf, png, signedAmountCsv } from "./fixtures";
import { upload, uploadDocument } from "./helpers";
import { inData } from "../helpers/data-db";
import { portal, signedInMember } from "../helpers/portal";

describe("partner document upload", () => {
  it("answers 201 with the decided document and a Location that reads it back", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key);
    const res = await upload(sandbox.key, lead.id, [
      { name: "document_type", value: "id_document" },
      // The client claims a PDF; the bytes say PNG, and the stored name says so too (issue 21 item 4).
      { name: "file", value: png(), filename: "passport.pdf", type: "application/pdf" },
    ]);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^doc_/),
      document_type: "id_document",
      filename: "passport.png",
      byte_size: png().length,
      state: "accepted",
      reason: null,
      formula_cells: false,
      received_at: expect.any(String),
    });
    const location = res.headers.get("Location")!;
    expect(location).toMatch(new RegExp(`/partner/v1/leads/${lead.id}/documents/${res.body.id}$`));
    const again = await call("GET", new URL(location).pathname, { key: sandbox.key });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);

    const row = await inData.prepare("select content_type, storage_key, source, state from documents where id = ?").bind(res.body.id).first<any>();
    expect(row).toEqual({ content_type: "image/png", storage_key: `leads/sandbox/${lead.id}/documents/${res.body.id}`, source: "partner_upload", state: "accepted" });
    const object = await env.DOCUMENTS.get(row.storage_key);
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(png());
    expect(object!.httpMetadata?.contentType).toBe("image/png");
    expect(object!.customMetadata?.filename).toBe("passport.png");
  });

  it("lists every document oldest first, rejected ones with their reason", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key);
    const accepted = await uploadDocument(sandbox.key, lead.id, "bank_statements", bytes(signedAmountCsv), "april-may.csv");
    const wrongKind = await uploadDocument(sandbox.key, lead.id, "bank_statements", png(), "photo.png");
    const empty = await uploadDocument(sandbox.key, lead.id, "invoice", new Uint8Array(), "empty.pdf");
    const unreadable = await uploadDocument(sandbox.key, lead.id, "bank_statements", bytes("name,email\nAda,ada@example.com\n"), "contacts.csv");
    expect([wrongKind.reason, empty.reason, unreadable.reason]).toEqual(["unsupported_file_type", "empty_file", "unreadable_statement"]);
    expect([wrongKind.state, empty.state, unreadable.state]).toEqual(["rejected", "rejected", "rejected"]);

    const res = await call("GET", `/partner/v1/leads/${lead.id}/documents`, { key: sandbox.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ lead_id: lead.id, documents: [accepted, wrongKind, empty, unreadable], count: 4 });
  });

  it("lists nothing for a lead without documents", async () => {
    const { live } = await partnerWithKeys();
    const lead = await createLead(live.key);
    expect((await call("GET", `/partner/v1/leads/${lead.id}/documents`, { key: live.key })).body).toEqual({ lead_id: lead.id, documents: [], count: 0 });
  });

  it("sanitises the filename: path parts, control characters, length", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key);
    const doc = await uploadDocument(sandbox.key, lead.id, "other", pdf(), `..\\..\\windows\\sys\u0007tem\u202E${"x".repeat(300)}.pdf`);
    expect(doc.filename).not.toMatch(/[\\/\u0000-\u001f\u202e]/);
    expect(doc.filename.startsWith("system")).toBe(true);
    expect(doc.filename.endsWith(".pdf")).toBe(true);
    expect(doc.filename.length).toBe(200);
  });

  it("parses an OFX statement into the lead: documents, statements, documents_complete and monthly revenue basis statements", async () => {
    const { sandbox } = await partnerWithKeys();
    const body = completeUkLead();
    const lead = await createLead(sandbox.key, { ...body, trading: { ...body.trading, monthly_revenue: 41_000 } });
    const before = (await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key })).body;
    expect(before.steps.documents_complete).toBe(false);
    expect(before.statements).toEqual({ has_statements: false, uploaded_at: null, account_kind: null });
    expect(before.trading).toMatchObject({ monthly_revenue: 41_000, monthly_revenue_basis: "applicant" });

    const doc = await uploadDocument(sandbox.key, lead.id, "bank_statements", bytes(ofxV1Bank), "q1.ofx");
    const after = (await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key })).body;
    expect(after.documents).toEqual([doc]);
    expect(after.statements).toEqual({ has_statements: true, uploaded_at: doc.received_at, account_kind: "bank" });
    expect(after.steps.documents_complete).toBe(true);
    expect(after.trading).toMatchObject({ monthly_revenue: 3_000, monthly_revenue_basis: "statements", monthly_revenue_band: "25k_50k" });
  });

  it("takes the latest parsed statement; a PDF statement counts as a document but not as figures", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key);
    await uploadDocument(sandbox.key, lead.id, "bank_statements", pdf(), "statement.pdf");
    const withPdf = (await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key })).body;
    expect(withPdf.steps.documents_complete).toBe(true);
    expect(withPdf.statements.has_statements).toBe(false);

    await uploadDocument(sandbox.key, lead.id, "bank_statements", bytes(ofxV1Bank), "q1.ofx");
    const csv = await uploadDocument(sandbox.key, lead.id, "bank_statements", bytes(signedAmountCsv), "apr-may.csv");
    const lead2 = (await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key })).body;
    expect(lead2.statements).toEqual({ has_statements: true, uploaded_at: csv.received_at, account_kind: "bank" });
    expect(lead2.trading).toMatchObject({ monthly_revenue: 2_000, monthly_revenue_basis: "statements" });
  });

  it("leaves the lead's figures alone when the only statement was rejected", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key);
    await uploadDocument(sandbox.key, lead.id, "bank_statements", bytes("Date,Amount\n"), "empty-export.csv");
    const after = (await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key })).body;
    expect(after.steps.documents_complete).toBe(false);
    expect(after.statements.has_statements).toBe(false);
    expect(after.documents).toHaveLength(1);
  });
});

describe("removing a rejected document (DELETE /leads/{id}/documents/{document_id})", () => {
  const remove = (key: string, leadId: string, documentId: string, host?: string) => call("DELETE", `/partner/v1/leads/${leadId}/documents/${documentId}`, { key, host });

  it("answers 204 and takes the rejected document off the lead: its row, its file, its place in the lists; the event and the key's audit entry with it", async () => {
    const { organisation, live } = await partnerWithKeys();
    const lead = await createLead(live.key);
    const kept = await uploadDocument(live.key, lead.id, "id_document", png(), "passport.png");
    const rejected = await uploadDocument(live.key, lead.id, "bank_statements", png(), "photo.png");
    const key = `leads/live/${lead.id}/documents/${rejected.id}`;
    expect(await env.DOCUMENTS.head(key)).not.toBeNull();

    const res = await remove(live.key, lead.id, rejected.id);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");

    const list = await call("GET", `/partner/v1/leads/${lead.id}/documents`, { key: live.key });
    expect(list.body).toEqual({ lead_id: lead.id, documents: [kept], count: 1 });
    expect((await call("GET", `/partner/v1/leads/${lead.id}`, { key: live.key })).body.documents).toEqual([kept]);
    expect((await call("GET", `/partner/v1/leads/${lead.id}/documents/${rejected.id}`, { key: live.key })).status).toBe(404);
    expect(await inData.prepare("select id from documents where id = ?").bind(rejected.id).first()).toBeNull();
    expect(await env.DOCUMENTS.head(key)).toBeNull();
    // The key is marked released in the batch: had the delete failed, the sweep would find the object unreferenced.
    expect(await inData.prepare("select storage_key from pending_uploads where storage_key = ?").bind(key).first()).toEqual({ storage_key: key });

    const events = await call("GET", `/partner/v1/events?event=document.removed`, { key: live.key });
    expect(events.body.events.map((e: { data: unknown }) => e.data)).toEqual([{ lead_id: lead.id, reference: lead.reference, document: rejected, payload_mode: "reference" }]);
    const audit = await inData.prepare("select organisation_id, member_id, environment, action, target from portal_audit_log where target = ?").bind(rejected.id).all();
    expect(audit.results).toEqual([{ organisation_id: organisation.id, member_id: `api_key:${live.client_id}`, environment: "live", action: "document.removed", target: rejected.id }]);
    // The firm's audit page words it: the action and the key that did it, as the API keys page lists it.
    const session = await signedInMember(organisation.id, "admin");
    const page = await portal("GET", "/audit", { session });
    expect(page.text).toContain("Removed a rejected document");
    expect(page.text).toContain(`The API, with the key ${live.client_id}`);
  });

  it("refuses an accepted document with 409 invalid_transition and changes nothing", async () => {
    const { live } = await partnerWithKeys();
    const lead = await createLead(live.key);
    const accepted = await uploadDocument(live.key, lead.id, "bank_statements", bytes(signedAmountCsv), "april-may.csv");

    const res = await remove(live.key, lead.id, accepted.id);
    expectProblem(res, 409, "invalid_transition");
    expect(res.body.error.message).toMatch(/accepted/);
    expect((await call("GET", `/partner/v1/leads/${lead.id}/documents`, { key: live.key })).body.documents).toEqual([accepted]);
    expect(await env.DOCUMENTS.head(`leads/live/${lead.id}/documents/${accepted.id}`)).not.toBeNull();
    expect((await call("GET", `/partner/v1/events?event=document.removed`, { key: live.key })).body.events).toEqual([]);
  });

  it("refuses a file the business uploaded in its hub with 409: only the business removes it", async () => {
    const { organisation, live } = await partnerWithKeys();
    const lead = await createLead(live.key);
    const id = "doc_clientupload0000000001";
    await env.DB.prepare(
      "insert into documents (id, environment, lead_id, partner_organisation_id, deal_ref, request_id, source, document_type, filename, content_type, byte_size, state, storage_key, received_at, decided_at) values (?, 'live', ?, ?, 'DL-TEST', 'dreq_x', 'client_upload', 'bank_statements', 'a.pdf', 'application/pdf', 10, 'rejected', ?, '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z')",
    )
      .bind(id, lead.id, organisation.id, `leads/live/${lead.id}/documents/${id}`)
      .run();
    const res = await remove(live.key, lead.id, id);
    expectProblem(res, 409, "invalid_transition");
    expect(res.body.error.message).toMatch(/client hub/);
    expect(await inData.prepare("select id from documents where id = ?").bind(id).first()).toEqual({ id });
  });

  it("answers 404 for another account's document, the other environment's, one already removed, and an unknown id", async () => {
    const { sandbox, live } = await partnerWithKeys();
    const { live: stranger } = await partnerWithKeys();
    const lead = await createLead(live.key);
    const rejected = await uploadDocument(live.key, lead.id, "invoice", new Uint8Array(), "empty.pdf");
    const strangersLead = await createLead(stranger.key);

    expectProblem(await remove(stranger.key, lead.id, rejected.id), 404, "not_found");
    // The stranger's own lead with this account's document id: the document is looked up on that lead only.
    expectProblem(await remove(stranger.key, strangersLead.id, rejected.id), 404, "not_found");
    expectProblem(await remove(sandbox.key, lead.id, rejected.id, SANDBOX), 404, "not_found");
    expectProblem(await remove(live.key, lead.id, "doc_nothing"), 404, "not_found");
    expect((await call("GET", `/partner/v1/leads/${lead.id}/documents`, { key: live.key })).body.count).toBe(1);

    expect((await remove(live.key, lead.id, rejected.id)).status).toBe(204);
    expectProblem(await remove(live.key, lead.id, rejected.id), 404, "not_found");
  });

  it("removes once when two removals race: one 204, one 404, one event", async () => {
    const { live } = await partnerWithKeys();
    const lead = await createLead(live.key);
    const rejected = await uploadDocument(live.key, lead.id, "invoice", new Uint8Array(), "empty.pdf");
    const answers = await Promise.all([remove(live.key, lead.id, rejected.id), remove(live.key, lead.id, rejected.id)]);
    expect(answers.map((r) => r.status).sort()).toEqual([204, 404]);
    expect((await call("GET", `/partner/v1/events?event=document.removed`, { key: live.key })).body.events).toHaveLength(1);
    expect((await inData.prepare("select count(*) as n from portal_audit_log where target = ?").bind(rejected.id).all<{ n: number }>()).results.reduce((a, r) => a + r.n, 0)).toBe(1);
  });

  it("removes a rejected document from a submitted lead too: no lender ever saw it", async () => {
    const { live } = await partnerWithKeys();
    const lead = await createLead(live.key);
    const rejected = await uploadDocument(live.key, lead.id, "bank_statements", png(), "photo.png");
    const submitted = await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: live.key });
    expect(submitted.status).toBe(200);
    expect((await remove(live.key, lead.id, rejected.id)).status).toBe(204);
    expect((await call("GET", `/partner/v1/leads/${lead.id}/documents`, { key: live.key })).body.count).toBe(0);
  });
});
