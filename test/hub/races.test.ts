import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { acceptedHubLead, dealRow, filesForm, hubCall, hubLead, lenderEvents, requestDocuments } from "./helpers";

describe("client hub: races", () => {
  it("parallel uploads on one request keep file_count, the documents and every event consistent", async () => {
    const { hub, lead, refA, a, keys } = await hubLead();
    const request = await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id });
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) => hubCall("POST", `${hub}/requests/${request.id}`, { multipart: filesForm({ name: `part-${i}a.pdf`, content: `%PDF-1.4 ${i}a` }, { name: `part-${i}b.pdf`, content: `%PDF-1.4 ${i}b` }) })),
    );
    for (const res of answers) expect(res.status).toBe(303);
    const row = await env.DB.prepare("select status, file_count from document_requests where id = ?").bind(request.id).first<any>();
    expect(row).toEqual({ status: "uploaded", file_count: 8 });
    const { results: docs } = await env.DB.prepare("select id from documents where request_id = ?").bind(request.id).all<any>();
    expect(docs).toHaveLength(8);
    const events = await lenderEvents(keys.a.live, refA, "request.fulfilled");
    expect(events).toHaveLength(4);
    // Each event reports the request as it stood after its own upload: 2, 4, 6, 8 files, each list matching its count.
    expect(events.map((e) => e.data.request.file_count).sort()).toEqual([2, 4, 6, 8]);
    for (const e of events) expect(e.data.request.files).toHaveLength(e.data.request.file_count);
    expect(new Set(events.at(-1)!.data.request.files.map((f: any) => f.id))).toEqual(new Set(docs.map((d) => d.id)));
  });

  it("parallel account submissions store one summary and fire one event", async () => {
    const { hub, refA, keys } = await acceptedHubLead();
    const answers = await Promise.all(
      ["31926819", "42037920", "53148031"].map((account_number) =>
        hubCall("POST", `${hub}/deals/${refA}/completion/account`, { form: { account_holder_name: "Widgets Ltd", sort_code: "123456", account_number } }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([303, 409, 409]);
    const events = await lenderEvents(keys.a.live, refA, "deal.account_submitted");
    expect(events).toHaveLength(1);
    expect(events[0].data.completion.account_summary).toBe((await dealRow(refA)).account_summary);
  });

  it("parallel signatures sign once", async () => {
    const { hub, refA, keys } = await acceptedHubLead();
    const { call } = await import("../helpers/api");
    const { pdfBytes } = await import("../lender/helpers");
    await hubCall("POST", `${hub}/deals/${refA}/completion/account`, { form: { account_holder_name: "Widgets Ltd", sort_code: "123456", account_number: "31926819" } });
    await call("PUT", `/v1/deals/${refA}/agreement`, { key: keys.a.live, rawBody: pdfBytes(), contentType: "application/pdf" });
    const answers = await Promise.all(["Ada Lovelace", "Ada King", "A. Lovelace"].map((full_name) => hubCall("POST", `${hub}/deals/${refA}/completion/signature`, { form: { full_name, consent: "yes" } })));
    expect(answers.map((r) => r.status).sort()).toEqual([303, 409, 409]);
    expect(await lenderEvents(keys.a.live, refA, "deal.agreement_signed")).toHaveLength(1);
  });
});
