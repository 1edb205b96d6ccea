import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, newClientAddress, PRODUCTION, throughEdge } from "../helpers/api";
import { completeUkLead } from "../leads/helpers";
import { filesForm, hubCall, hubLead, lenderEvents, requestDocuments } from "./helpers";

const HEADERS = {
  "referrer-policy": "no-referrer",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  "cache-control": "no-store",
};
const expectHubHeaders = (headers: Headers) => {
  for (const [name, value] of Object.entries(HEADERS)) expect(headers.get(name), name).toBe(value);
};

describe("client hub: the link is the credential", () => {
  it("answers a wrong token and an unknown lead with the same plain 404 page", async () => {
    const { hub, lead } = await hubLead();
    const token = hub.split("/")[3];
    const flipped = token.slice(0, -1) + (token.endsWith("0") ? "1" : "0");
    const answers = await Promise.all([
      hubCall("GET", `/hub/${lead.id}/${flipped}`),
      hubCall("GET", `/hub/00000000-0000-4000-8000-000000000000/${token}`),
      hubCall("GET", `/hub/${lead.id}/not-a-token`),
      hubCall("GET", `/hub/${lead.id}`),
      hubCall("GET", `/hub/${lead.id}/${flipped}/deals/DL-AAAAAAAA/messages`),
      hubCall("POST", `/hub/${lead.id}/${flipped}/requests/req_x`, { multipart: filesForm({ name: "a.pdf", content: "x" }) }),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(404);
      expect(res.text).toBe(answers[0].text);
      expectHubHeaders(res.headers);
    }
    expect(answers[0].text).not.toContain(lead.id);
  });

  it("sets the no-referrer, CSP and no-store headers on every page and answer", async () => {
    const { hub, refA } = await hubLead();
    for (const res of [
      await hubCall("GET", hub),
      await hubCall("GET", `${hub}/deals/${refA}/messages`),
      await hubCall("GET", `${hub}/deals/${refA}/completion`),
      await hubCall("POST", `${hub}/deals/${refA}/messages`, { form: { body: "hi" } }),
      await hubCall("POST", `${hub}/deals/${refA}/messages`, { form: { body: "" } }),
    ]) {
      expectHubHeaders(res.headers);
      expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    }
  });

  it("never reaches another lead's request or deal through this lead's link", async () => {
    const mine = await hubLead();
    const other = await hubLead();
    const theirs = await requestDocuments({ ref: other.refA, lenderOrganisationId: other.a.id, leadId: other.lead.id });
    expect((await hubCall("GET", `${mine.hub}/requests/${theirs.id}`)).status).toBe(404);
    expect((await hubCall("POST", `${mine.hub}/requests/${theirs.id}`, { multipart: filesForm({ name: "a.pdf", content: "x" }) })).status).toBe(404);
    expect((await hubCall("GET", `${mine.hub}/deals/${other.refA}/messages`)).status).toBe(404);
    expect((await hubCall("POST", `${mine.hub}/deals/${other.refA}/messages`, { form: { body: "hello" } })).status).toBe(404);
    expect((await hubCall("GET", `${mine.hub}/deals/${other.refA}/completion`)).status).toBe(404);
    expect((await hubCall("POST", `${mine.hub}/deals/${other.refA}/completion/account`, { form: { account_holder_name: "X", sort_code: "123456", account_number: "12345678" } })).status).toBe(404);
    const row = await env.DB.prepare("select file_count from document_requests where id = ?").bind(theirs.id).first<any>();
    expect(row.file_count).toBe(0);
    expect(await lenderEvents(other.keys.a.live, other.refA, "message.created")).toHaveLength(0);
  });

  it("shows a refused post's page once, to the link's session that posted it; without that session it is the plain 404 page", async () => {
    const { hub, lead, refA } = await hubLead();
    const other = await hubLead();
    const address = { "CF-Connecting-IP": newClientAddress() };
    const send = (path: string, init: RequestInit = {}) => exports.default.fetch(new Request(`${PRODUCTION}${path}`, { redirect: "manual", ...init, headers: { ...address, ...init.headers }, ...throughEdge(address) }));
    const cookieOf = async (link: string) => /^(rfs_hub=[^;]+)/.exec((await send(link)).headers.get("Set-Cookie") ?? "")![1]!;
    const [mine, theirs] = [await cookieOf(hub), await cookieOf(other.hub)];
    const messages = `/hub/${lead.id}/deals/${refA}/messages`;
    const refusedPost = (cookie: string) =>
      send(messages, { method: "POST", headers: { Cookie: cookie, Origin: PRODUCTION, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded" }, body: "body=" });
    const shows = async (location: string, cookie?: string) => {
      const res = await send(location, { headers: cookie ? { Cookie: cookie } : {} });
      expectHubHeaders(res.headers);
      return { status: res.status, refused: (await res.text()).includes('id="body-error"') };
    };

    const first = await refusedPost(mine);
    expect(first.status).toBe(303);
    const location = first.headers.get("Location")!;
    expect(location).toMatch(new RegExp(`^${messages}\\?refused=[a-z0-9]+$`));
    // Without the lead's session (none, or another lead's) nothing of the lead opens: the plain 404 page.
    expect(await shows(location)).toEqual({ status: 404, refused: false });
    expect(await shows(location, theirs)).toEqual({ status: 404, refused: false });
    // Its own session: the refusal's status and the message beside the field, once; then the page afresh.
    expect(await shows(location, mine)).toEqual({ status: 400, refused: true });
    expect(await shows(location, mine)).toEqual({ status: 200, refused: false });
  });

  it("refuses a cross-site POST with 403 and writes nothing", async () => {
    const { hub, refA, keys } = await hubLead();
    const crossSite: Record<string, string>[] = [
      { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
      { Origin: "https://evil.example" },
      { "Sec-Fetch-Site": "cross-site" },
      { "Sec-Fetch-Site": "same-site", Origin: "http://sub.api.test" },
      { Origin: "null", "Sec-Fetch-Site": "" },
      { Origin: "https://evil.example", "Sec-Fetch-Site": "" },
    ];
    for (const headers of crossSite) {
      const res = await hubCall("POST", `${hub}/deals/${refA}/messages`, { form: { body: "forged" }, headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expectHubHeaders(res.headers);
    }
    expect(await lenderEvents(keys.a.live, refA, "message.created")).toHaveLength(0);
    expect((await hubCall("POST", `${hub}/deals/${refA}/messages`, { form: { body: "mine" } })).status).toBe(303);
    // What a browser sends from the hub page under no-referrer: a null Origin beside same-origin.
    expect((await hubCall("POST", `${hub}/deals/${refA}/messages`, { form: { body: "mine too" }, headers: { Origin: "null" } })).status).toBe(303);
    // A non-browser client (neither header) has no session to forge from.
    expect((await hubCall("POST", `${hub}/deals/${refA}/messages`, { form: { body: "api" }, headers: { Origin: "", "Sec-Fetch-Site": "" } })).status).toBe(303);
    expect(await lenderEvents(keys.a.live, refA, "message.created")).toHaveLength(3);
  });

  it("escapes every value it renders (business name, request label and note, messages, filenames)", async () => {
    const xss = "<script>alert(1)</script>";
    const body = { ...completeUkLead(), business: { ...completeUkLead().business, name: `Evil ${xss} Ltd` } };
    const { hub, lead, refA, a, keys } = await hubLead(body);
    const request = await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id }, { label: `Label ${xss}`, note: `"><img src=x onerror=alert(1)>` });
    await call("POST", `/v1/deals/${refA}/messages`, { key: keys.a.live, body: { body: `Lender says ${xss}` } });
    await hubCall("POST", `${hub}/deals/${refA}/messages`, { form: { subject: xss, body: `Client says ${xss}` } });
    await hubCall("POST", `${hub}/requests/${request.id}`, { multipart: filesForm({ name: `${xss}.pdf`, content: "x" }) });
    const pages = [await hubCall("GET", hub), await hubCall("GET", `${hub}/requests/${request.id}`), await hubCall("GET", `${hub}/deals/${refA}/messages`)];
    for (const page of pages) {
      expect(page.status).toBe(200);
      expect(page.text).not.toContain("<script>");
      expect(page.text).not.toContain("<img");
    }
    expect(pages[0].text).toContain("Evil &lt;script&gt;alert(1)&lt;/script&gt; Ltd");
    expect(pages[1].text).toContain("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;");
    expect(pages[2].text).toContain("Client says &lt;script&gt;");
    // A refused form shows the typed text back, escaped.
    const refused = await hubCall("POST", `${hub}/deals/${refA}/messages`, { form: { subject: `${xss}`, body: "x".repeat(5001) } });
    expect(refused.status).toBe(422);
    expect(refused.text).not.toContain("<script>");
  });

  it("keeps the upload body limit", async () => {
    const { hub, lead, refA, a } = await hubLead();
    const request = await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id });
    const big = new Uint8Array(20 * 1024 * 1024 + 10);
    const res = await hubCall("POST", `${hub}/requests/${request.id}`, { multipart: filesForm({ name: "big.pdf", content: big }) });
    expect(res.status).toBe(413);
    expectHubHeaders(res.headers);
    const text = await hubCall("POST", `${hub}/deals/${refA}/messages`, { form: { body: "y".repeat(300 * 1024) } });
    expect(text.status).toBe(413);
  });
});
