import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { baseUrl, http, newLender, newPartner, sandboxUrl } from "./client";
import { panelLender } from "./panel";

// The service under test was started the bare way (global-setup.ts): migrations applied, then
// `wrangler dev` with only ADMIN_TOKEN, ALLOW_PRIVATE_WEBHOOKS and PUBLIC_URL: no SIGNING_SECRET.
const LOCAL_DEVELOPMENT_SIGNING_SECRET = "rfs-local-development-only-signing-secret-never-deploy";

const ukLead = () => ({
  country: "GB",
  partner_reference: "BARE-1",
  channel: { name: "Bare Books", domain: "barebooks.example" },
  business: { name: "Bare Start Ltd", company_number: "01234567", entity_type: "private_limited_company", industry: "retail" },
  contact: { first_name: "Ada", last_name: "Lovelace", email: "ada@bare.example", phone: "+44 20 7946 0000" },
  funding: { amount: 40000, purpose: "working_capital", product_family: "business_loan" },
  trading: { monthly_revenue: 30000, tib_months: 48, annual_turnover: 360000 },
  consent: { obtained: true, obtained_at: "2026-11-01T10:00:00Z", soft_credit_search: true },
});

const statementCsv = ["Date,Description,Amount,Currency", "03/04/2026,Card takings,2500.00,GBP", "17/04/2026,Rent,-1200.00,GBP", "20/05/2026,Card takings,1500.00,GBP"].join("\n");

describe("the service started the bare way, without SIGNING_SECRET", () => {
  it("answers GET /health on both hosts with no credentials", async () => {
    for (const url of [baseUrl(), sandboxUrl()]) {
      const res = await http("GET", `${url}/health`);
      expect(res.status, url).toBe(200);
      expect(res.body).toEqual({ status: "ok" });
    }
    for (const path of ["/partner/v1/openapi.json", "/v1/openapi.json"]) {
      expect((await http("GET", `${baseUrl()}${path}`)).body.paths["/health"].get).toBeDefined();
    }
  });

  it("creates, reads and lists leads, signing links and cursors with the local-only secret", async () => {
    const { sandbox } = await newPartner();
    const headers = { "X-API-Key": sandbox.key };
    const api = `${sandboxUrl()}/partner/v1`;
    const created = await http("POST", `${api}/leads`, { headers, body: ukLead() });
    expect(created.status).toBe(201);
    expect(created.body.renewal_of).toBeNull();
    // The hub link is signed with the local-only secret: proof the service really runs without SIGNING_SECRET.
    const token = createHmac("sha256", LOCAL_DEVELOPMENT_SIGNING_SECRET).update(`hub\n${created.body.id}`).digest("hex").slice(0, 40);
    expect(created.body.upload_url).toBe(`${baseUrl()}/hub/${created.body.id}/${token}`);
    // The link's token is traded for a session cookie (signed with the same secret), then the page opens without it.
    const link = await fetch(created.body.upload_url, { redirect: "manual" });
    expect(link.status).toBe(303);
    const cookie = link.headers.get("set-cookie")!.split(";")[0];
    const hub = await fetch(new URL(link.headers.get("location")!, created.body.upload_url), { headers: { Cookie: cookie } });
    expect(hub.status).toBe(200);

    expect((await http("GET", `${api}/leads/${created.body.id}`, { headers })).status).toBe(200);
    const unknown = await http("GET", `${api}/leads/${crypto.randomUUID()}`, { headers });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("not_found");

    await http("POST", `${api}/leads`, { headers, body: ukLead() });
    const first = await http("GET", `${api}/leads?limit=1`, { headers });
    expect(first.status).toBe(200);
    const second = await http("GET", `${api}/leads?limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`, { headers });
    expect(second.status).toBe(200);
    expect(second.body.leads[0].id).toBe(created.body.id);
  });

  it("flags statements_available in the lead list once a statement is parsed", async () => {
    const { sandbox } = await newPartner();
    const headers = { "X-API-Key": sandbox.key };
    const api = `${sandboxUrl()}/partner/v1`;
    const withStatement = (await http("POST", `${api}/leads`, { headers, body: ukLead() })).body;
    const without = (await http("POST", `${api}/leads`, { headers, body: ukLead() })).body;
    const form = new FormData();
    form.set("document_type", "bank_statements");
    form.set("file", new Blob([statementCsv], { type: "text/csv" }), "apr-may.csv");
    const upload = await fetch(`${api}/leads/${withStatement.id}/documents`, { method: "POST", headers, body: form });
    expect(upload.status).toBe(201);
    const list = await http("GET", `${api}/leads`, { headers });
    const flags = Object.fromEntries(list.body.leads.map((l: any) => [l.id, l.statements_available]));
    expect(flags).toEqual({ [withStatement.id]: true, [without.id]: false });
  });

  it("renews a funded lead once per Idempotency-Key and refuses a lead that is not funded", async () => {
    await panelLender("bare-loan");
    const { sandbox } = await newPartner();
    const headers = { "X-API-Key": sandbox.key };
    const api = `${sandboxUrl()}/partner/v1`;
    const lead = (await http("POST", `${api}/leads`, { headers, body: ukLead() })).body;

    const early = await http("POST", `${api}/leads/${lead.id}/renewals`, { headers });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe("lead_not_funded");

    expect((await http("POST", `${api}/leads/${lead.id}/submit`, { headers })).body.state).toBe("offers_available");
    const offers = (await http("GET", `${api}/leads/${lead.id}/offers`, { headers })).body.offers;
    expect((await http("POST", `${api}/leads/${lead.id}/offers/${offers[0].id}/acceptance`, { headers })).status).toBe(200);
    expect((await http("POST", `${api}/sandbox/leads/${lead.id}/simulate`, { headers, body: { event: "fund" } })).body.state).toBe("funded");

    const renewal = await http("POST", `${api}/leads/${lead.id}/renewals`, { headers: { ...headers, "Idempotency-Key": "bare-renew-1" } });
    expect(renewal.status).toBe(201);
    expect(renewal.headers.get("location")).toBe(`${api}/leads/${renewal.body.id}`);
    expect(renewal.body).toMatchObject({ state: "draft", renewal_of: lead.id, business: { name: "Bare Start Ltd" }, consent: { obtained: null } });
    const replay = await http("POST", `${api}/leads/${lead.id}/renewals`, { headers: { ...headers, "Idempotency-Key": "bare-renew-1" } });
    expect(replay.body.id).toBe(renewal.body.id);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");

    const original = (await http("GET", `${api}/leads/${lead.id}`, { headers })).body;
    expect(original.renewals).toEqual([{ id: renewal.body.id, reference: renewal.body.reference, state: "draft", created_at: renewal.body.created_at }]);
    const stranger = await newPartner();
    expect((await http("POST", `${api}/leads/${lead.id}/renewals`, { headers: { "X-API-Key": stranger.sandbox.key } })).status).toBe(404);
  });

  it("creates and pages test deals and webhook endpoints for a sandbox lender", async () => {
    const lender = await newLender();
    const headers = { "X-API-Key": lender.sandbox.key };
    for (let i = 0; i < 2; i++) expect((await http("POST", `${sandboxUrl()}/v1/test/deals`, { headers })).status).toBe(201);
    const page = await http("GET", `${sandboxUrl()}/v1/deals?limit=1`, { headers });
    expect(page.status).toBe(200);
    const next = await http("GET", `${sandboxUrl()}/v1/deals?limit=1&cursor=${encodeURIComponent(page.body.next_cursor)}`, { headers });
    expect(next.status).toBe(200);
    expect(next.body.deals[0].ref).not.toBe(page.body.deals[0].ref);
    const endpoint = await http("POST", `${sandboxUrl()}/v1/webhooks`, { headers, body: { url: "http://127.0.0.1:9/hook", events: ["deal.created"] } });
    expect(endpoint.status).toBe(201);
  });
});
