/**
 * R2 faults around uploads. The bytes go to R2 before the row (a row never
 * points at a missing file), after a `pending_uploads` marker; the row's batch
 * removes the marker. So an R2 failure leaves no row, and an object whose row
 * never landed keeps its marker until the cron deletes both.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { runScheduledWork } from "../../src/jobs/scheduled";
import { sweepUnlandedUploads, UNLANDED_UPLOAD_GRACE_MS } from "../../src/services/uploads/tracked-uploads";
import { form } from "../documents/helpers";
import { callWithEnv, faultyEnv } from "../helpers/faults";
import { expectProblem, partnerWithKeys } from "../helpers/seed";
import { changes, changeShape, snapshot } from "../helpers/storage-snapshot";
import { createLead } from "../leads/helpers";
import { filesForm, hubLead, OUR_ORIGIN, requestDocuments } from "../hub/helpers";
import { pdfBytes, routedLead } from "../lender/helpers";
import { testDeps } from "../helpers/deps";

const MINUTE = 60_000;

async function partnerLead() {
  const { live } = await partnerWithKeys();
  return { key: live.key, lead: await createLead(live.key) };
}

const uploadWith = (testEnv: Cloudflare.Env, key: string, leadId: string) =>
  callWithEnv(testEnv, "POST", `/partner/v1/leads/${leadId}/documents`, {
    key,
    form: form([
      { name: "document_type", value: "id_document" },
      { name: "file", value: new TextEncoder().encode("%PDF-1.7\n%%EOF\n"), filename: "passport.pdf", type: "application/pdf" },
    ]),
  });

const markers = async () => (await env.DB.prepare("select storage_key, created_at from pending_uploads order by created_at, rowid").all<{ storage_key: string; created_at: string }>()).results;
const documentRows = async (leadId: string) => (await env.DB.prepare("select id, storage_key from documents where lead_id = ?").bind(leadId).all<any>()).results;
const eventsOf = async (subjectId: string) => (await env.DB.prepare("select event from events where subject_id = ?").bind(subjectId).all<any>()).results;

/** Runs the worker's cron handler at `scheduledTime`, as the runtime would. */
async function cronAt(scheduledTime: number) {
  const ctx = createExecutionContext();
  await worker.scheduled!(createScheduledController({ cron: "* * * * *", scheduledTime }), env, ctx);
  await waitOnExecutionContext(ctx);
}

beforeEach(async () => {
  vi.spyOn(console, "error").mockImplementation(() => {});
  // Each test starts without markers, so the sweeps below see only their own.
  await env.DB.prepare("delete from pending_uploads").run();
});

describe("an R2 failure during an upload", () => {
  it("storing the bytes fails: 500, no document row, no event; the marker alone is left and swept", async () => {
    const { key, lead } = await partnerLead();
    const before = await snapshot();
    const faulty = faultyEnv({ r2: 1 });
    const res = await uploadWith(faulty.env, key, lead.id);
    expectProblem(res, 500, "internal_error");
    expect(faulty.switches.r2.failed).toEqual([{ call: 1, operation: "put" }]);
    expect(changeShape(changes(before, await snapshot()))).toEqual({ pending_uploads: "+1 -0" });
    expect(await documentRows(lead.id)).toEqual([]);
    expect(await eventsOf(lead.id)).toEqual([]);
    const [marker] = await markers();
    expect(await env.DOCUMENTS.head(marker.storage_key)).toBeNull();

    await cronAt(Date.now() + UNLANDED_UPLOAD_GRACE_MS + MINUTE);
    expect(await markers()).toEqual([]);
    // The lead is whole: the upload can simply be sent again.
    expect((await uploadWith(env, key, lead.id)).status).toBe(201);
  });

  it("a client's upload in the hub: the second file cannot be stored, so no file, no request move, no event", async () => {
    const { hub, lead, refA, a } = await hubLead();
    const request = await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id });
    const before = await snapshot();
    const faulty = faultyEnv({ r2: 2 });
    const res = await callWithEnv(faulty.env, "POST", `${hub}/requests/${request.id}`, {
      headers: { Origin: OUR_ORIGIN, "Sec-Fetch-Site": "same-origin" },
      form: filesForm({ name: "jan.pdf", content: "%PDF-1 jan" }, { name: "feb.pdf", content: "%PDF-1 february" }),
    });
    expect(res.status).toBe(500);
    expect(faulty.switches.r2.failed).toEqual([{ call: 2, operation: "put" }]);
    expect(changeShape(changes(before, await snapshot()))).toEqual({ pending_uploads: "+2 -0" });
    expect(await env.DB.prepare("select status, file_count from document_requests where id = ?").bind(request.id).first()).toEqual({ status: "requested", file_count: 0 });
    // The first file did reach R2 (its put may still be finishing when the 500 goes out): an orphan the cron removes.
    const stored = (await markers()).map((m) => m.storage_key);
    const present = async () => (await Promise.all(stored.map((k) => env.DOCUMENTS.head(k)))).filter(Boolean).length;
    for (let i = 0; i < 50 && (await present()) === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await present()).toBe(1);
    await cronAt(Date.now() + UNLANDED_UPLOAD_GRACE_MS + MINUTE);
    expect((await Promise.all(stored.map((k) => env.DOCUMENTS.head(k)))).filter(Boolean)).toHaveLength(0);
    expect(await markers()).toEqual([]);
  });

  it("the lender's agreement cannot be stored: 500, the deal records no agreement and the client is not told", async () => {
    const { keys, refA, lead } = await routedLead();
    const before = await snapshot();
    const res = await callWithEnv(faultyEnv({ r2: 1 }).env, "PUT", `/v1/deals/${refA}/agreement`, { key: keys.a.live, rawBody: pdfBytes(), contentType: "application/pdf" });
    expectProblem(res, 500, "internal_error");
    expect(changeShape(changes(before, await snapshot()))).toEqual({ pending_uploads: "+1 -0" });
    const deal = await env.DB.prepare("select agreement_key, agreement_uploaded_at from deals where ref = ?").bind(refA).first<any>();
    expect(deal).toEqual({ agreement_key: null, agreement_uploaded_at: null });
    expect((await env.DB.prepare("select count(*) as n from client_notifications where lead_id = ?").bind(lead.id).first<any>()).n).toBe(0);
  });
});

describe("an object whose row never landed", () => {
  /** The bytes are stored, then the row's batch fails: an orphan in R2 with its marker. */
  async function orphan() {
    const { key, lead } = await partnerLead();
    const probe = faultyEnv();
    const ok = await uploadWith(probe.env, key, lead.id);
    expect(ok.status).toBe(201);
    // Same write again with its batch failing (the batch is the call before the read-back).
    const batchCall = probe.switches.d1.calls - 1;
    const faulty = faultyEnv({ d1: batchCall });
    const res = await uploadWith(faulty.env, key, lead.id);
    expect(faulty.switches.d1.failed).toEqual([{ call: batchCall, operation: "batch" }]);
    expectProblem(res, 500, "internal_error");
    const landed = new Set((await documentRows(lead.id)).map((d) => d.storage_key));
    const [marker] = (await markers()).filter((m) => !landed.has(m.storage_key));
    expect(marker).toBeDefined();
    expect(await env.DOCUMENTS.head(marker.storage_key)).not.toBeNull();
    return { key, lead, storageKey: marker.storage_key, landed: [...landed] };
  }

  it("is kept through the grace period, then the cron deletes it and its marker; landed files stay", async () => {
    const { lead, storageKey, landed } = await orphan();
    expect(await documentRows(lead.id)).toHaveLength(1);
    expect(await eventsOf(lead.id)).toEqual([{ event: "document.accepted" }]);

    await cronAt(Date.now() + 5 * MINUTE);
    expect(await env.DOCUMENTS.head(storageKey)).not.toBeNull();
    expect((await markers()).map((m) => m.storage_key)).toEqual([storageKey]);

    await cronAt(Date.now() + UNLANDED_UPLOAD_GRACE_MS + MINUTE);
    expect(await env.DOCUMENTS.head(storageKey)).toBeNull();
    expect(await markers()).toEqual([]);
    expect(await env.DOCUMENTS.head(landed[0])).not.toBeNull();
  });

  it("a failed delete leaves the marker, and the next tick deletes the object", async () => {
    const { storageKey } = await orphan();
    const later = new Date(Date.now() + UNLANDED_UPLOAD_GRACE_MS + MINUTE);
    const results = await runScheduledWork(faultyEnv({ r2: "every" }).env, later);
    expect(results.uploads.status).toBe("rejected");
    expect(await env.DOCUMENTS.head(storageKey)).not.toBeNull();
    expect((await markers()).map((m) => m.storage_key)).toEqual([storageKey]);

    await runScheduledWork(env, later);
    expect(await env.DOCUMENTS.head(storageKey)).toBeNull();
    expect(await markers()).toEqual([]);
  });

  it("never deletes an object a row points at, even when its marker is stale", async () => {
    const { key, lead } = await partnerLead();
    const doc = (await uploadWith(env, key, lead.id)).body;
    const [row] = await documentRows(lead.id);
    expect(row.id).toBe(doc.id);
    await env.DB.prepare("insert into pending_uploads (storage_key, created_at) values (?, ?)").bind(row.storage_key, new Date(Date.now() - 2 * UNLANDED_UPLOAD_GRACE_MS).toISOString()).run();
    expect(await sweepUnlandedUploads(testDeps())).toEqual({ checked: 1, deleted: 0 });
    expect(await env.DOCUMENTS.head(row.storage_key)).not.toBeNull();
    expect(await markers()).toEqual([]);
  });

  it("sweeps in bounded batches, oldest first", async () => {
    const old = Date.now() - 2 * UNLANDED_UPLOAD_GRACE_MS;
    const keys = [0, 1, 2].map((i) => `leads/live/sweep-${crypto.randomUUID()}/documents/doc_${i}`);
    for (const [i, storageKey] of keys.entries()) {
      await env.DOCUMENTS.put(storageKey, "orphan");
      await env.DB.prepare("insert into pending_uploads (storage_key, created_at) values (?, ?)").bind(storageKey, new Date(old + i * 1000).toISOString()).run();
    }
    expect(await sweepUnlandedUploads(testDeps(), 2)).toEqual({ checked: 2, deleted: 2 });
    expect(await env.DOCUMENTS.head(keys[0])).toBeNull();
    expect(await env.DOCUMENTS.head(keys[1])).toBeNull();
    expect(await env.DOCUMENTS.head(keys[2])).not.toBeNull();
    expect(await sweepUnlandedUploads(testDeps(), 2)).toEqual({ checked: 1, deleted: 1 });
    expect(await env.DOCUMENTS.head(keys[2])).toBeNull();
  });
});

describe("a removed document's bytes", () => {
  it("the delete after the removal's batch fails: still 204, the row gone, and the cron deletes the object once the grace is over", async () => {
    const { key, lead } = await partnerLead();
    const rejected = await callWithEnv(env, "POST", `/partner/v1/leads/${lead.id}/documents`, {
      key,
      form: form([
        { name: "document_type", value: "invoice" },
        { name: "file", value: new Uint8Array(), filename: "blank.pdf", type: "application/pdf" },
      ]),
    });
    expect(rejected.body.state).toBe("rejected");
    const [row] = await documentRows(lead.id);
    const faulty = faultyEnv({ r2: (_call, operation) => operation === "delete" });
    const res = await callWithEnv(faulty.env, "DELETE", `/partner/v1/leads/${lead.id}/documents/${rejected.body.id}`, { key });
    expect(res.status).toBe(204);
    expect(faulty.switches.r2.failed.map((f) => f.operation)).toEqual(["delete"]);
    expect(await documentRows(lead.id)).toEqual([]);
    expect(await eventsOf(lead.id)).toEqual([{ event: "document.rejected" }, { event: "document.removed" }]);
    expect(await env.DOCUMENTS.head(row.storage_key)).not.toBeNull();
    expect((await markers()).map((m) => m.storage_key)).toContain(row.storage_key);

    await cronAt(Date.now() + UNLANDED_UPLOAD_GRACE_MS + MINUTE);
    expect(await env.DOCUMENTS.head(row.storage_key)).toBeNull();
    expect((await markers()).map((m) => m.storage_key)).not.toContain(row.storage_key);
  });
});
