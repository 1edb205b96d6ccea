import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { expectProblem, partnerWithKeys } from "../helpers/seed";
import { createLead } from "../leads/helpers";
import { DOCUMENTS_PER_LEAD } from "../../src/services/documents/lead-documents";
import { UPLOAD_BODY_LIMIT_BYTES } from "../../src/middleware/body-limit";
import { pdf } from "./fixtures";
import { upload } from "./helpers";
import { countInData, dataDb, inData } from "../helpers/data-db";

async function freshLead() {
  const { sandbox } = await partnerWithKeys();
  const lead = await createLead(sandbox.key);
  return { key: sandbox.key, lead };
}

const typePart = (value = "bank_statements") => ({ name: "document_type", value });
const filePart = (value: Uint8Array = pdf(), filename = "statement.pdf") => ({ name: "file", value, filename });

function expectField(res: Awaited<ReturnType<typeof upload>>, status: number, code: string, field: string) {
  expectProblem(res, status, code);
  expect(res.body.error.field).toBe(field);
}

async function documentCount(leadId: string) {
  return countInData("select count(*) as n from documents where lead_id = ?", leadId);
}

describe("partner document upload: bad input", () => {
  it("refuses a form without a file part (400, field file)", async () => {
    const { key, lead } = await freshLead();
    expectField(await upload(key, lead.id, [typePart()]), 400, "invalid_request", "file");
    expect(await documentCount(lead.id)).toBe(0);
  });

  it("refuses a file field sent as plain text (400, field file)", async () => {
    const { key, lead } = await freshLead();
    const res = await upload(key, lead.id, [typePart(), { name: "file", value: "%PDF-1.7 pretending" }]);
    expectField(res, 400, "invalid_request", "file");
    expect(res.body.detail).toMatch(/file part/);
  });

  it("refuses two file parts (400, field file)", async () => {
    const { key, lead } = await freshLead();
    expectField(await upload(key, lead.id, [typePart(), filePart(), filePart()]), 400, "invalid_request", "file");
  });

  it("refuses a missing document_type (400, field document_type)", async () => {
    const { key, lead } = await freshLead();
    const res = await upload(key, lead.id, [filePart()]);
    expectField(res, 400, "invalid_request", "document_type");
    expect(res.body.detail).toMatch(/bank_statements/);
  });

  it("refuses an unknown document_type (400, field document_type)", async () => {
    const { key, lead } = await freshLead();
    expectField(await upload(key, lead.id, [typePart("passport_photo"), filePart()]), 400, "invalid_request", "document_type");
    expectField(await upload(key, lead.id, [typePart(""), filePart()]), 400, "invalid_request", "document_type");
  });

  it("refuses unknown form fields by name: no mass assignment", async () => {
    const { key, lead } = await freshLead();
    const res = await upload(key, lead.id, [typePart(), filePart(), { name: "state", value: "accepted" }, { name: "lead_id", value: "other" }]);
    expectField(res, 400, "invalid_request", "state");
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(["state", "lead_id"]));
    expect(await documentCount(lead.id)).toBe(0);
  });

  it("answers a body that is not multipart with 415 unsupported_media_type, like the JSON routes answer a wrong type", async () => {
    const { key, lead } = await freshLead();
    const path = `/partner/v1/leads/${lead.id}/documents`;
    const json = await call("POST", path, { key, body: { document_type: "bank_statements", file: "JVBERi0=" } });
    expectProblem(json, 415, "unsupported_media_type");
    expect(json.body.detail).toMatch(/multipart\/form-data/);
    expectProblem(await call("POST", path, { key, rawBody: pdf(), contentType: "application/pdf" }), 415, "unsupported_media_type");
    expectProblem(await call("POST", path, { key, rawBody: "document_type=bank_statements", contentType: "application/x-www-form-urlencoded" }), 415, "unsupported_media_type");
    expectProblem(await call("POST", path, { key }), 415, "unsupported_media_type");
  });

  it("answers a multipart body that does not parse with 400 invalid_request", async () => {
    const { key, lead } = await freshLead();
    const res = await call("POST", `/partner/v1/leads/${lead.id}/documents`, { key, rawBody: "--x\r\nnot a part", contentType: "multipart/form-data; boundary=zzz" });
    expectProblem(res, 400, "invalid_request");
  });

  it("refuses a file over the limit with 413 payload_too_large and stores nothing", async () => {
    const { key, lead } = await freshLead();
    const big = new Uint8Array(UPLOAD_BODY_LIMIT_BYTES + 1);
    big.set(pdf());
    expectProblem(await upload(key, lead.id, [typePart(), filePart(big, "huge.pdf")]), 413, "payload_too_large");
    expect(await documentCount(lead.id)).toBe(0);
  });

  it(`refuses the upload past ${DOCUMENTS_PER_LEAD} documents on a lead with 422 cap_exceeded`, async () => {
    const { key, lead } = await freshLead();
    await seedDocuments(lead.id, DOCUMENTS_PER_LEAD);
    const res = await upload(key, lead.id, [typePart(), filePart()]);
    expectProblem(res, 422, "cap_exceeded");
    expect(res.body.limit).toBe(DOCUMENTS_PER_LEAD);
    expect(await documentCount(lead.id)).toBe(DOCUMENTS_PER_LEAD);
  });

  it("lets exactly one of several concurrent uploads take the last place, with one event", async () => {
    const { key, lead } = await freshLead();
    await seedDocuments(lead.id, DOCUMENTS_PER_LEAD - 1);
    const results = await Promise.all([1, 2, 3, 4].map(() => upload(key, lead.id, [typePart(), filePart()])));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 201)) expectProblem(r, 422, "cap_exceeded");
    expect(await documentCount(lead.id)).toBe(DOCUMENTS_PER_LEAD);
    expect(await countInData("select count(*) as n from events where subject_id = ? and event like 'document.%'", lead.id)).toBe(1);
    // The losers' bytes do not linger in the bucket.
    const stored = await env.DOCUMENTS.list({ prefix: `leads/sandbox/${lead.id}/` });
    expect(stored.objects).toHaveLength(1);
  });
});

/** Rows standing in for earlier uploads, so the cap is reached without a hundred requests. */
async function seedDocuments(leadId: string, n: number) {
  const lead = await inData.prepare("select organisation_id, environment from leads where id = ?").bind(leadId).first<any>();
  const at = new Date().toISOString();
  // Written where the lead's rows are: its environment's database.
  const db = dataDb(lead.environment);
  const statements = Array.from({ length: n }, (_, i) =>
    db.prepare(
      "insert into documents (id, environment, lead_id, partner_organisation_id, source, document_type, filename, content_type, byte_size, state, storage_key, received_at, decided_at) values (?, ?, ?, ?, 'partner_upload', 'other', 'seed.pdf', 'application/pdf', 10, 'accepted', ?, ?, ?)",
    ).bind(`doc_seed_${leadId}_${i}`, lead.environment, leadId, lead.organisation_id, `seed/${i}`, at, at),
  );
  await db.batch(statements);
}
