import { describe, expect, it } from "vitest";
import { localVars } from "../../scripts/lib/service.mjs";
import { baseUrl, http } from "./client";
import { matchedLead } from "./panel";

// The global setup starts wrangler dev through scripts/lib/service.mjs (the path `npm run dev`
// takes) on a random free port and passes no PUBLIC_URL: every link must still use that port.
describe("local links follow the port the service serves on", () => {
  it("derives PUBLIC_URL from the port unless one is given", () => {
    expect(localVars(8792)).toEqual({ PUBLIC_URL: "http://localhost:8792" });
    expect(localVars(8792, { PUBLIC_URL: "https://api.example.com", ADMIN_TOKEN: "x" })).toEqual({ PUBLIC_URL: "https://api.example.com", ADMIN_TOKEN: "x" });
  });

  it("is not testing the default port by accident", () => {
    expect(new URL(baseUrl()).port).not.toBe("8787");
  });

  it("hands out upload_url, hub links, signed file links and docs URLs on the served port", async () => {
    const { lender, pkey, lead } = await matchedLead("port-loan", { name: "Port Ltd", company_number: "07654329" }, { first_name: "Ada", last_name: "Port", email: "ada@port.example" });
    expect(lead.body.upload_url.startsWith(`${baseUrl()}/hub/${lead.body.id}/`)).toBe(true);

    // The hub page's own links start at the same origin.
    // The link's token is traded for a session cookie, then the page opens without it.
    const link = await fetch(lead.body.upload_url, { redirect: "manual" });
    expect(link.status).toBe(303);
    expect(link.headers.get("location")!.startsWith("/") || link.headers.get("location")!.startsWith(baseUrl())).toBe(true);
    const page = await fetch(new URL(link.headers.get("location")!, lead.body.upload_url), { headers: { Cookie: link.headers.get("set-cookie")!.split(";")[0] } });
    const hub = { status: page.status, text: await page.text() };
    expect(hub.status).toBe(200);
    const absolute = [...hub.text.matchAll(/(?:href|action)="(https?:\/\/[^"]+)"/g)].map(([, url]) => url);
    for (const url of absolute) expect(url.startsWith(baseUrl())).toBe(true);

    // A signed file link, as the lender reads it.
    const form = new FormData();
    form.set("document_type", "bank_statements");
    form.set("file", new Blob(["%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"], { type: "application/pdf" }), "statement.pdf");
    const upload = await fetch(`${baseUrl()}/partner/v1/leads/${lead.body.id}/documents`, { method: "POST", headers: pkey, body: form });
    expect(upload.status).toBe(201);
    expect((await http("POST", `${baseUrl()}/partner/v1/leads/${lead.body.id}/submit`, { headers: pkey })).body.state).toBe("matched");
    const lkey = { "X-API-Key": lender.live.key };
    const deals = await http("GET", `${baseUrl()}/v1/deals?status=new`, { headers: lkey });
    const ref: string = deals.body.deals.find((d: any) => d.business.name === "Port Ltd").ref;
    const docs = await http("GET", `${baseUrl()}/v1/deals/${ref}/documents`, { headers: lkey });
    const urls: string[] = JSON.stringify(docs.body).match(/https?:\/\/[^"]+\/files\/[^"]+/g) ?? [];
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url.startsWith(`${baseUrl()}/files/`)).toBe(true);

    // The reference and the documents it reads.
    const openapi = await http("GET", `${baseUrl()}/partner/v1/openapi.json`);
    expect(openapi.body.servers[0].url).toBe(`${baseUrl()}/partner/v1`);
    const problem = await http("GET", `${baseUrl()}/partner/v1/leads/nope`, { headers: pkey });
    expect(problem.body.type.startsWith(`${baseUrl()}/docs#error-`)).toBe(true);
  });
});
