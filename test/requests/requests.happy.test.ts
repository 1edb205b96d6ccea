import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { expectProblem, lenderWithKeys } from "../helpers/seed";
import { routedLead } from "../lender/helpers";
import { download, fulfil, partnerStatement, requestOn, requestRow, testDeal } from "./helpers";
import { inData } from "../helpers/data-db";

const notifications = (ref: string) => inData.prepare("select * from client_notifications where deal_ref = ?").bind(ref).all<any>().then((r) => r.results);

describe("document requests", () => {
  it("creates a requested request, labelled from the item type, and notifies the client with a hub deep link", async () => {
    const { keys, refA, lead } = await routedLead();
    const res = await call("POST", `/v1/deals/${refA.toLowerCase()}/requests`, { key: keys.a.live, body: { item_type: "bank_statements_6m", note: "  Business account only  " } });
    expect(res.status).toBe(200);
    const request = res.body.request;
    expect(request).toEqual({
      id: expect.stringMatching(/^dreq_/),
      item_type: "bank_statements_6m",
      document_type: "bank_statements",
      label: "Bank statements for the last 6 months",
      note: "Business account only",
      status: "requested",
      requested_via: "hub",
      requested_at: expect.any(String),
      uploaded_at: null,
      forwarded_at: null,
      waived_at: null,
      file_count: 0,
      has_files: false,
    });
    expect(await notifications(refA)).toEqual([
      expect.objectContaining({ lead_id: lead.id, kind: "document_request", deal_ref: refA, subject: "Bank statements for the last 6 months", deep_link: `/requests/${request.id}`, read_at: null }),
    ]);

    const list = await call("GET", `/v1/deals/${refA}/requests`, { key: keys.a.live });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ requests: [request], count: 1, open_count: 1 });
    const docs = await call("GET", `/v1/deals/${refA}/documents`, { key: keys.a.live });
    expect(docs.body).toEqual({
      documents: [],
      outstanding_requests: [{ request_id: request.id, document_type: "bank_statements", label: request.label, requested_at: request.requested_at }],
      has_statements: false,
      count: 0,
    });
  });

  it("notifies nobody on a test deal: it has no client", async () => {
    const { sandbox } = await lenderWithKeys();
    const ref = await testDeal(sandbox.key);
    const request = await requestOn(sandbox.key, ref, "filed_accounts");
    expect(request).toMatchObject({ item_type: "filed_accounts", document_type: "filed_accounts", status: "requested", note: null });
    expect(await notifications(ref)).toEqual([]);
    expect((await requestRow(request.id)).lead_id).toBeNull();
  });

  it("waives an open request once; waived requests leave the outstanding list and the open count", async () => {
    const { sandbox } = await lenderWithKeys();
    const ref = await testDeal(sandbox.key);
    const first = await requestOn(sandbox.key, ref);
    const second = await requestOn(sandbox.key, ref, "vat_returns");
    const waived = await call("POST", `/v1/deals/${ref}/requests/${first.id}/waive`, { key: sandbox.key });
    expect(waived.status).toBe(200);
    expect(waived.body.request).toMatchObject({ id: first.id, status: "waived", waived_at: expect.any(String), forwarded_at: null });
    expectProblem(await call("POST", `/v1/deals/${ref}/requests/${first.id}/waive`, { key: sandbox.key }), 409, "invalid_transition");
    const list = await call("GET", `/v1/deals/${ref}/requests`, { key: sandbox.key });
    expect(list.body).toMatchObject({ count: 2, open_count: 1 });
    const docs = await call("GET", `/v1/deals/${ref}/documents`, { key: sandbox.key });
    expect(docs.body.outstanding_requests.map((r: any) => r.request_id)).toEqual([second.id]);
  });

  it("reads no files of a request the client has not answered, and changes nothing", async () => {
    const { sandbox } = await lenderWithKeys();
    const ref = await testDeal(sandbox.key);
    const request = await requestOn(sandbox.key, ref);
    const files = await call("GET", `/v1/deals/${ref}/requests/${request.id}/files`, { key: sandbox.key });
    expect(files.status).toBe(200);
    expect(files.body).toEqual({ request_id: request.id, status: "requested", files: [] });
    expect((await requestRow(request.id)).status).toBe("requested");
  });

  it("hands the files over on the first read: the request becomes forwarded once, and the links download the bytes", async () => {
    const { keys, refA } = await routedLead();
    const request = await requestOn(keys.a.live, refA);
    const { documents } = await fulfil(refA, request.id, [
      { filename: "may.pdf", content: "%PDF-1.7 may" },
      { filename: "june.pdf", content: "%PDF-1.7 june" },
    ]);
    const docs = await call("GET", `/v1/deals/${refA}/documents`, { key: keys.a.live });
    expect(docs.body.outstanding_requests).toEqual([]);
    expect(docs.body.count).toBe(2);

    const first = await call("GET", `/v1/deals/${refA}/requests/${request.id}/files`, { key: keys.a.live });
    expect(first.status).toBe(200);
    expect(first.body.status).toBe("forwarded");
    expect(first.body.files).toEqual(
      // Files come in the order they were received; a stable sort keeps write order for a shared timestamp.
      [...documents].sort((x, y) => x.receivedAt.localeCompare(y.receivedAt)).map((d) => ({
        id: d.id,
        document_type: "bank_statements",
        filename: d.filename,
        content_type: "application/pdf",
        size_bytes: d.byteSize,
        uploaded_at: d.receivedAt,
        source: "client_upload",
        request_id: request.id,
        formula_cells: false,
        url: expect.stringMatching(/^http:\/\/localhost:8787\/files\/leads\/live\/.+\?expires=\d+&signature=/),
      })),
    );
    const bytes = await download(first.body.files.find((f: any) => f.filename === "june.pdf").url);
    expect(bytes.status).toBe(200);
    expect(bytes.text).toBe("%PDF-1.7 june");
    expect(bytes.headers.get("Content-Disposition")).toContain('filename="june.pdf"');

    const forwardedAt = (await requestRow(request.id)).forwarded_at;
    expect(forwardedAt).toEqual(expect.any(String));
    const again = await call("GET", `/v1/deals/${refA}/requests/${request.id}/files`, { key: keys.a.live });
    expect(again.body.status).toBe("forwarded");
    expect((await requestRow(request.id)).forwarded_at).toBe(forwardedAt);
    const listed = (await call("GET", `/v1/deals/${refA}/requests`, { key: keys.a.live })).body;
    expect(listed).toMatchObject({ count: 1, open_count: 0, requests: [{ status: "forwarded", forwarded_at: forwardedAt, file_count: 2, has_files: true }] });
    expectProblem(await call("POST", `/v1/deals/${refA}/requests/${request.id}/waive`, { key: keys.a.live }), 409, "invalid_transition");
  });

  it("waives an uploaded request (open until forwarded)", async () => {
    const { keys, refA } = await routedLead();
    const request = await requestOn(keys.a.live, refA);
    await fulfil(refA, request.id);
    const waived = await call("POST", `/v1/deals/${refA}/requests/${request.id}/waive`, { key: keys.a.live });
    expect(waived.body.request).toMatchObject({ status: "waived", file_count: 1 });
    const files = await call("GET", `/v1/deals/${refA}/requests/${request.id}/files`, { key: keys.a.live });
    expect(files.body.status).toBe("waived");
    expect(files.body.files).toHaveLength(1);
  });

  it("lists the deal's documents with statements: has_statements, the deal figures and the list's statements_available", async () => {
    const { keys, refA, refB } = await routedLead();
    await partnerStatement(refA, 42_000);
    const docs = await call("GET", `/v1/deals/${refA}/documents`, { key: keys.a.live });
    expect(docs.body).toMatchObject({ has_statements: true, count: 1, documents: [{ source: "partner_upload", request_id: null, filename: "statement.csv" }] });
    const deal = await call("GET", `/v1/deals/${refA}`, { key: keys.a.live });
    expect(deal.body.documents).toEqual(docs.body.documents.map((d: any) => ({ ...d, url: expect.any(String) })));
    const listA = await call("GET", "/v1/deals", { key: keys.a.live });
    expect(listA.body.deals.find((d: any) => d.ref === refA).statements_available).toBe(true);
    const listB = await call("GET", "/v1/deals", { key: keys.b.live });
    expect(listB.body.deals.find((d: any) => d.ref === refB).statements_available).toBe(true);
  });

  it("reports statements_available false without a parsed, accepted statement", async () => {
    const { sandbox } = await lenderWithKeys();
    const ref = await testDeal(sandbox.key);
    const list = await call("GET", "/v1/deals", { key: sandbox.key });
    expect(list.body.deals.find((d: any) => d.ref === ref).statements_available).toBe(false);
  });
});
