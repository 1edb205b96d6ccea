import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { expectProblem, lenderWithKeys } from "../helpers/seed";
import { consume, dispatch, receiverBucket, register, settleOutbox } from "../webhooks/support/webhooks";
import { firmOffer, indicativeOffer, makeOffer, pdfBytes, routedLead } from "./helpers";
import { inData } from "../helpers/data-db";

// Events other files of this worker left undispatched must not reach this file's dispatch.
beforeEach(settleOutbox);

// POST /v1/test/deals/{ref}/simulate: the business behind a lender's test deal acts through the
// client hub's own code (decisions.md, "Sandbox life cycle for lenders").

interface Written {
  event: string;
  subject_id: string;
  test: number;
  detail: Record<string, any>;
}

async function lenderEvents(organisationId: string): Promise<Written[]> {
  const { results } = await inData.prepare("select event, subject_id, test, detail from events where organisation_id = ? and api = 'lender' order by created_at, rowid")
    .bind(organisationId)
    .all<any>();
  return results.map((r) => ({ ...r, detail: JSON.parse(r.detail) }));
}

const names = (events: Written[]) => events.map((e) => e.event);

async function testDeal(key: string, body?: unknown) {
  const res = await call("POST", "/v1/test/deals", { key, body });
  expect(res.status).toBe(201);
  return res.body.ref as string;
}

const simulate = (key: string, ref: string, event: unknown, headers?: Record<string, string>) =>
  call("POST", `/v1/test/deals/${ref}/simulate`, { key, body: { event }, headers });

const requestDocument = async (key: string, ref: string, item_type = "bank_statements_6m") => {
  const res = await call("POST", `/v1/deals/${ref}/requests`, { key, body: { item_type } });
  expect(res.status).toBe(200);
  return res.body.request as { id: string; status: string };
};

describe("POST /v1/test/deals/{ref}/simulate", () => {
  it("document.removed: the business takes back the newest file it sent, the request asked for again, the lender told", async () => {
    const { organisation, sandbox } = await lenderWithKeys();
    const ref = await testDeal(sandbox.key);
    const none = await simulate(sandbox.key, ref, "document.removed");
    expectProblem(none, 409, "invalid_transition");
    expect(none.body.error).toMatchObject({ field: "event", message: expect.stringContaining("have it upload one first") });

    const request = await requestDocument(sandbox.key, ref);
    expect((await simulate(sandbox.key, ref, "request.fulfilled")).status).toBe(200);
    const [file] = (await call("GET", `/v1/deals/${ref}/documents`, { key: sandbox.key })).body.documents;
    expect((await simulate(sandbox.key, ref, "document.removed")).status).toBe(200);

    expect((await call("GET", `/v1/deals/${ref}/documents`, { key: sandbox.key })).body).toMatchObject({ documents: [], count: 0, outstanding_requests: [expect.objectContaining({ request_id: request.id })] });
    const removed = (await lenderEvents(organisation.id)).filter((e) => e.event === "document.removed");
    expect(removed).toEqual([
      {
        event: "document.removed",
        subject_id: ref,
        test: 1,
        detail: {
          document: { id: file.id, document_type: "bank_statements", filename: file.filename, content_type: "application/pdf", size_bytes: file.size_bytes, uploaded_at: file.uploaded_at, source: "client_upload", request_id: request.id, formula_cells: false },
          document_request: { id: request.id, item_type: "bank_statements_6m", label: expect.any(String), status: "requested", file_count: 0 },
        },
      },
    ]);
    expectProblem(await simulate(sandbox.key, ref, "document.removed"), 409, "invalid_transition");
  });

  it("walks a test deal through every lender event the business fires, each written once and delivered to the lender's webhook", async () => {
    const { organisation, sandbox } = await lenderWithKeys();
    const hooks = receiverBucket();
    await register("lender", sandbox.key, { url: hooks.url(), payload: "reference" });
    const ref = await testDeal(sandbox.key);

    // The business replies: the lender reads the message in the conversation, and message.created fires.
    const replied = await simulate(sandbox.key, ref.toLowerCase(), "message.created");
    expect(replied.status).toBe(200);
    expect(replied.body).toMatchObject({ ref, test: true, status: "submitted" });
    const messages = await call("GET", `/v1/deals/${ref}/messages`, { key: sandbox.key });
    expect(messages.body.messages).toEqual([expect.objectContaining({ direction: "borrower_to_lender", body: expect.stringContaining("Sandbox reply") })]);

    // Two requests: each upload answers the oldest one still waiting.
    const first = await requestDocument(sandbox.key, ref);
    const second = await requestDocument(sandbox.key, ref, "id_document");
    expect((await simulate(sandbox.key, ref, "request.fulfilled")).status).toBe(200);
    expect((await simulate(sandbox.key, ref, "request.fulfilled")).status).toBe(200);
    const requests = await call("GET", `/v1/deals/${ref}/requests`, { key: sandbox.key });
    const byId = new Map(requests.body.requests.map((r: any) => [r.id, r]));
    expect(byId.get(first.id)).toMatchObject({ status: "uploaded", file_count: 1 });
    expect(byId.get(second.id)).toMatchObject({ status: "uploaded", file_count: 1 });
    const files = await call("GET", `/v1/deals/${ref}/requests/${first.id}/files`, { key: sandbox.key });
    expect(files.body.files).toEqual([expect.objectContaining({ content_type: "application/pdf", filename: "sandbox-bank-statements.pdf" })]);

    // Before an offer is accepted the hub refuses the completion steps, with its own reason.
    const early = await simulate(sandbox.key, ref, "deal.account_submitted");
    expectProblem(early, 409, "invalid_transition");
    expect(early.body.error).toMatchObject({ field: "event", message: expect.stringContaining("has not been accepted") });
    expectProblem(await simulate(sandbox.key, ref, "offer.accepted"), 409, "offer_not_acceptable");

    // The lender's current offer is accepted as the partner would accept it: offer.accepted fires.
    await makeOffer(sandbox.key, ref, indicativeOffer());
    const firm = await makeOffer(sandbox.key, ref, firmOffer());
    const accepted = await simulate(sandbox.key, ref, "offer.accepted");
    expect(accepted.body).toMatchObject({ status: "offer_accepted", lender_status: "offer_made" });
    const offers = await call("GET", `/v1/deals/${ref}/offers`, { key: sandbox.key });
    expect(offers.body.offers.find((o: any) => o.id === firm.id)).toMatchObject({ status: "accepted" });
    expectProblem(await simulate(sandbox.key, ref, "offer.accepted"), 409, "offer_not_acceptable");

    const account = await simulate(sandbox.key, ref, "deal.account_submitted");
    expect(account.status).toBe(200);
    const completion = await call("GET", `/v1/deals/${ref}/completion`, { key: sandbox.key });
    expect(completion.body.completion).toMatchObject({ account_submitted: true, account_summary: "Test Trading Ltd ••••5678" });
    expectProblem(await simulate(sandbox.key, ref, "deal.account_submitted"), 409, "invalid_transition");

    // Signing needs the agreement the lender uploads; then the business signs it.
    const unsigned = await simulate(sandbox.key, ref, "deal.agreement_signed");
    expectProblem(unsigned, 409, "invalid_transition");
    expect(unsigned.body.error.message).toContain("no agreement to sign");
    expect((await call("PUT", `/v1/deals/${ref}/agreement`, { key: sandbox.key, rawBody: pdfBytes(), contentType: "application/pdf" })).status).toBe(200);
    expect((await simulate(sandbox.key, ref, "deal.agreement_signed")).status).toBe(200);
    expect((await call("GET", `/v1/deals/${ref}/completion`, { key: sandbox.key })).body.completion).toMatchObject({ signed: true, signature_verification: expect.stringMatching(/^typed_name:[0-9a-f]{64}$/) });

    const events = await lenderEvents(organisation.id);
    expect(names(events)).toEqual([
      "deal.created",
      "message.created",
      "request.fulfilled",
      "request.fulfilled",
      "deal.updated",
      "deal.updated",
      "offer.accepted",
      "deal.account_submitted",
      "deal.agreement_signed",
    ]);
    for (const e of events) expect(e).toMatchObject({ subject_id: ref, test: 1 });
    expect(events[1].detail.message).toMatchObject({ direction: "borrower_to_lender", from_email: "applicant@test.example" });
    expect(events[2].detail.request).toMatchObject({ id: first.id, file_count: 1 });
    expect(events[3].detail.request).toMatchObject({ id: second.id, file_count: 1 });
    expect(events[6].detail.offer).toMatchObject({ id: firm.id, status: "accepted" });
    expect(events[7].detail.completion).toMatchObject({ account_submitted: true });
    expect(events[8].detail.completion).toMatchObject({ signed: true });

    await consume((await dispatch()).deliveryIds);
    const bodies = (await hooks.records()).map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => b.event).sort()).toEqual(names(events).sort());
    for (const b of bodies) expect(b).toMatchObject({ environment: "sandbox", livemode: false, data: { ref, test: true } });
  });

  it("answers 409 no_open_request when no document request is open (none made, or the only one waived)", async () => {
    const { sandbox } = await lenderWithKeys();
    const ref = await testDeal(sandbox.key);
    const none = await simulate(sandbox.key, ref, "request.fulfilled");
    expectProblem(none, 409, "no_open_request");
    expect(none.body.error.field).toBe("event");
    const request = await requestDocument(sandbox.key, ref);
    expect((await call("POST", `/v1/deals/${ref}/requests/${request.id}/waive`, { key: sandbox.key })).status).toBe(200);
    expectProblem(await simulate(sandbox.key, ref, "request.fulfilled"), 409, "no_open_request");
  });

  it("is 404 for a routed (live) deal, another lender's test deal, a deleted test deal and an unknown reference", async () => {
    const { keys, refA, a } = await routedLead();
    expectProblem(await simulate(keys.a.live, refA, "message.created"), 404, "not_found");
    const other = await lenderWithKeys();
    const ref = await testDeal(other.sandbox.key);
    const mine = await lenderWithKeys();
    expectProblem(await simulate(mine.sandbox.key, ref, "message.created"), 404, "not_found");
    // The same account's other environment does not see it either.
    expectProblem(await simulate(other.live.key, ref, "message.created"), 404, "not_found");
    expectProblem(await simulate(other.sandbox.key, "DL-NOPE0000", "message.created"), 404, "not_found");
    expect((await call("DELETE", `/v1/test/deals/${ref}`, { key: other.sandbox.key })).status).toBe(204);
    expectProblem(await simulate(other.sandbox.key, ref, "message.created"), 404, "not_found");
    // Nothing was written for anyone: no message on the routed deal, no event beyond the creations.
    expect(names(await lenderEvents(a.id))).toEqual(["deal.created"]);
    expect(names(await lenderEvents(other.organisation.id))).toEqual(["deal.created"]);
  });

  it("refuses any other event with 400 naming the field `event`, and unknown keys", async () => {
    const { sandbox } = await lenderWithKeys();
    const ref = await testDeal(sandbox.key);
    for (const event of ["deal.created", "lead.funded", "MESSAGE.CREATED", "", 42, null]) {
      const res = await simulate(sandbox.key, ref, event);
      expectProblem(res, 400, "invalid_request");
      expect(res.body.error.field).toBe("event");
    }
    const missing = await call("POST", `/v1/test/deals/${ref}/simulate`, { key: sandbox.key, body: {} });
    expectProblem(missing, 400, "invalid_request");
    expect(missing.body.error.field).toBe("event");
    expectProblem(await call("POST", `/v1/test/deals/${ref}/simulate`, { key: sandbox.key, body: { event: "message.created", body: "x" } }), 400, "invalid_request");
  });

  it("keeps the business behind a test deal out of the lender's referrals", async () => {
    const { sandbox } = await lenderWithKeys();
    const ref = await testDeal(sandbox.key);
    expect((await simulate(sandbox.key, ref, "message.created")).status).toBe(200);
    const { lead_id } = (await inData.prepare("select lead_id from deals where ref = ?").bind(ref).first<{ lead_id: string }>())!;
    expect(lead_id).toEqual(expect.any(String));
    expect((await call("GET", "/v1/referrals", { key: sandbox.key })).body.referrals).toEqual([]);
    expectProblem(await call("GET", `/v1/referrals/${lead_id}`, { key: sandbox.key }), 404, "not_found");
    // One business per deal, however often the lender simulates.
    expect((await simulate(sandbox.key, ref, "message.created")).status).toBe(200);
    const { n } = (await env.DB_SANDBOX.prepare("select count(*) as n from leads where test_deal_ref = ?").bind(ref).first<{ n: number }>())!;
    expect(n).toBe(1);
  });

  it("gives a test deal one business under concurrent first simulates, each of which acts", async () => {
    const { organisation, sandbox } = await lenderWithKeys();
    const ref = await testDeal(sandbox.key);
    const answers = await Promise.all([1, 2, 3].map(() => simulate(sandbox.key, ref, "message.created")));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const { n } = (await env.DB_SANDBOX.prepare("select count(*) as n from leads where test_deal_ref = ?").bind(ref).first<{ n: number }>())!;
    expect(n).toBe(1);
    expect(names(await lenderEvents(organisation.id))).toEqual(["deal.created", "message.created", "message.created", "message.created"]);
  });

  it("honours Idempotency-Key: a repeat replays the answer and the business acts once", async () => {
    const { organisation, sandbox } = await lenderWithKeys();
    const ref = await testDeal(sandbox.key);
    const headers = { "Idempotency-Key": "simulate-1" };
    const first = await simulate(sandbox.key, ref, "message.created", headers);
    const again = await simulate(sandbox.key, ref, "message.created", headers);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(names(await lenderEvents(organisation.id))).toEqual(["deal.created", "message.created"]);
    expectProblem(await simulate(sandbox.key, ref, "request.fulfilled", headers), 422, "idempotency_key_reused");
  });
});
