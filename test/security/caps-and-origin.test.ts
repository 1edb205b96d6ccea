/**
 * Issue 21 item 14: a page a publishable key does not allow is refused before it counts against the
 * key's quota (a foreign page could otherwise lock the partner's own site out with 429); a hub
 * document request takes at most 10 files in one upload, and a lead holds at most 100 documents.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { createOrganisation, expectProblem, issueKey } from "../helpers/seed";
import { filesForm, hubCall, hubLead, lenderEvents, requestDocuments } from "../hub/helpers";
import { inData } from "../helpers/data-db";

const SHOP = "https://shop.example";
const body = { country: "GB", funding: { purpose: "working_capital", amount: 50_000 } };

/** The remaining allowance a `RateLimit` header reports: `"default";r=<remaining>;t=<seconds>`. */
const remaining = (header: string | null) => Number(/r=(\d+)/.exec(header ?? "")?.[1]);

describe("issue 21 item 14: the origin rule runs before the quota", () => {
  it("item 14: requests from a foreign origin do not spend the publishable key's quota", async () => {
    const partner = await createOrganisation("partner");
    const key = await issueKey(partner.id, "sandbox", "publishable", [SHOP]);
    const first = await call("POST", "/partner/v1/prequalification", { key: key.key, body, headers: { Origin: SHOP } });
    expect(first.status).toBe(200);
    const before = remaining(first.headers.get("RateLimit"));
    expect(before).toBeGreaterThan(0);

    for (let i = 0; i < 5; i++) {
      const foreign = await call("POST", "/partner/v1/prequalification", { key: key.key, body, headers: { Origin: "https://evil.example" } });
      expectProblem(foreign, 403, "origin_not_allowed");
      // Refused uncounted: the refusal carries no quota headers of the key.
      expect(foreign.headers.get("RateLimit")).toBeNull();
    }

    const after = await call("POST", "/partner/v1/prequalification", { key: key.key, body, headers: { Origin: SHOP } });
    expect(after.status).toBe(200);
    expect(remaining(after.headers.get("RateLimit"))).toBe(before - 1);
  });
});

/** The refusal box of a re-rendered hub page: its message and the field it names. */
const refusal = (text: string) => {
  const m = text.match(/<div class="error" role="alert" id="form-error"[^>]*>[\s\S]*?<li data-field="([^"]*)">(?:<a href="[^"]*">)?([^<]*)/);
  return m ? { field: m[1], message: m[2].replace(/&#39;/g, "'") } : null;
};
const pdf = (i: number) => ({ name: `statement-${i}.pdf`, content: `%PDF-1.4 statement ${i}` });
const requestRow = (id: string) => inData.prepare("select status, file_count from document_requests where id = ?").bind(id).first<any>();
const filesOfRequest = async (id: string) => (await inData.prepare("select id from documents where request_id = ?").bind(id).all()).results.length;

describe("issue 21 item 14: caps on client uploads", () => {
  it("item 14: a hub document request takes at most 10 files, in one upload or several: 422 cap_exceeded naming the limit", async () => {
    const { hub, lead, refA, a, keys } = await hubLead();
    const request = await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id });

    const eleven = await hubCall("POST", `${hub}/requests/${request.id}`, { multipart: filesForm(...Array.from({ length: 11 }, (_, i) => pdf(i))) });
    expect(eleven.status).toBe(422);
    expect(refusal(eleven.text)).toEqual({ field: "file", message: "A document request takes at most 10 files in all; this one holds 0." });
    expect(await requestRow(request.id)).toEqual({ status: "requested", file_count: 0 });

    const eight = await hubCall("POST", `${hub}/requests/${request.id}`, { multipart: filesForm(...Array.from({ length: 8 }, (_, i) => pdf(i))) });
    expect(eight.status).toBe(303);
    const three = await hubCall("POST", `${hub}/requests/${request.id}`, { multipart: filesForm(pdf(8), pdf(9), pdf(10)) });
    expect(three.status).toBe(422);
    expect(refusal(three.text)).toEqual({ field: "file", message: "A document request takes at most 10 files in all; this one holds 8." });
    expect(await requestRow(request.id)).toEqual({ status: "uploaded", file_count: 8 });
    expect(await filesOfRequest(request.id)).toBe(8);

    const two = await hubCall("POST", `${hub}/requests/${request.id}`, { multipart: filesForm(pdf(8), pdf(9)) });
    expect(two.status).toBe(303);
    expect(await requestRow(request.id)).toEqual({ status: "uploaded", file_count: 10 });
    expect(await lenderEvents(keys.a.live, refA, "request.fulfilled")).toHaveLength(2);
  });

  it("item 14: a lead takes at most 100 files from the client: the 101st is 422 cap_exceeded and nothing is written", async () => {
    const { hub, lead, refA, a, keys } = await hubLead();
    // 100 client uploads already on the lead (written directly: 10 requests of 10 through the hub would be slow).
    const at = new Date().toISOString();
    const rows = Array.from({ length: 100 }, (_, i) =>
      env.DB.prepare(
        "insert into documents (id, environment, lead_id, partner_organisation_id, deal_ref, request_id, source, document_type, filename, content_type, byte_size, state, storage_key, received_at, decided_at) select ?, 'live', ?, (select organisation_id from leads where id = ?), ?, null, 'client_upload', 'bank_statements', ?, 'application/pdf', 10, 'accepted', ?, ?, ?",
      ).bind(`doc_cap${lead.id}${i}`, lead.id, lead.id, refA, `seed-${i}.pdf`, `seed/${lead.id}/${i}`, at, at),
    );
    await env.DB.batch(rows);
    const request = await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id });
    const res = await hubCall("POST", `${hub}/requests/${request.id}`, { multipart: filesForm(pdf(1)) });
    expect(res.status).toBe(422);
    expect(refusal(res.text)).toEqual({ field: "file", message: "A lead takes at most 100 files from the client; this lead has reached the limit." });
    expect(await requestRow(request.id)).toEqual({ status: "requested", file_count: 0 });
    expect(await filesOfRequest(request.id)).toBe(0);
    expect(await lenderEvents(keys.a.live, refA, "request.fulfilled")).toHaveLength(0);
  });
});
