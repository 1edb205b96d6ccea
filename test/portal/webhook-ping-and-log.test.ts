/**
 * Issue 23 item 3: a test ping the receiver refused is an error on the endpoint's page (role=alert,
 * with the status and the start of the answer), never the green "sent" notice; the delivery log shows
 * each attempt's response status and body (first 2 KB, control characters dropped) beside the
 * signed payload that was sent.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { portal, signedInMember } from "../helpers/portal";
import { createOrganisation, issueKey } from "../helpers/seed";
import { receiverBucket } from "../webhooks/support/webhooks";
import { inData } from "../helpers/data-db";

async function registered(kind: "partner" | "lender", behaviour: string, query = "") {
  const org = await createOrganisation(kind);
  const session = await signedInMember(org.id);
  const receiver = receiverBucket();
  const events = kind === "partner" ? ["lead.funded"] : ["deal.created"];
  const res = await portal("POST", "/webhooks", { session, form: { url: receiver.url(behaviour, query), events, payload: "full" } });
  expect(res.status).toBe(201);
  const id = /href="\/portal\/webhooks\/(whe_[a-z0-9]+)"/.exec(res.text)![1];
  return { org, session, receiver, id };
}

/** Posts the test ping and follows the redirect as a browser would (the whole Location, query included). */
async function ping(session: Awaited<ReturnType<typeof signedInMember>>, id: string) {
  const sent = await portal("POST", `/webhooks/${id}/test`, { session, form: {} });
  expect(sent.status).toBe(303);
  const location = new URL(sent.headers.get("Location")!, "https://x.test");
  expect(location.pathname).toBe(`/portal/webhooks/${id}`);
  return portal("GET", `${location.pathname.replace("/portal", "")}${location.search}`, { session });
}

/** The outcome block at the top of the page: [, class, role, inner html]. */
const outcomeOf = (html: string) => {
  const found = /<(p|div) class="(notice|error)" role="(status|alert)"[^>]*data-outcome[^>]*>([\s\S]*?)<\/\1>/.exec(html);
  return found ? [found[0], found[2], found[3], found[4]] : null;
};

describe.each(["partner", "lender"] as const)("the test ping's outcome for a %s", (kind) => {
  it("shows a refused ping as an error with the status and the start of the receiver's answer", async () => {
    const { session, id } = await registered(kind, "status-500", "?body=database%20is%20down");
    const page = await ping(session, id);
    expect(page.status).toBe(200);
    const outcome = outcomeOf(page.text);
    expect(outcome?.[1]).toBe("error");
    expect(outcome?.[2]).toBe("alert");
    expect(outcome?.[3]).toContain("HTTP 500");
    expect(outcome?.[3]).toContain("database is down");
    expect(page.text).not.toContain("A test ping was sent");
  });

  it("shows an accepted ping as a notice with the status", async () => {
    const { session, id } = await registered(kind, "ok");
    const page = await ping(session, id);
    const outcome = outcomeOf(page.text);
    expect(outcome?.[1]).toBe("notice");
    expect(outcome?.[2]).toBe("status");
    expect(outcome?.[3]).toContain("HTTP 200");
  });
});

describe("the test ping's outcome without an answer", () => {
  it("shows a ping that never got an answer as an error naming what happened", async () => {
    const { session, id } = await registered("partner", "close");
    const outcome = outcomeOf((await ping(session, id)).text);
    expect(outcome?.[1]).toBe("error");
    expect(outcome?.[3]).toMatch(/no answer|network/i);
  });
});

/** Text as Hono's JSX writes it into a page. */
const escaped = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

const SECRET_PATTERN = /whsec_[A-Za-z0-9_-]+/;

describe.each(["partner", "lender"] as const)("the delivery log of a %s", (kind) => {
  const api = kind === "partner" ? "/partner/v1" : "/v1";

  it("shows each attempt's status and the start of the answer beside the signed payload that was sent, and nothing secret", async () => {
    const { org, session, id, receiver } = await registered(kind, "status-503", "?body=%7B%22error%22%3A%22try%20later%22%7D");
    await ping(session, id);
    const [received] = await receiver.records();
    const page = (await portal("GET", `/webhooks/${id}`, { session })).text;
    const log = page.slice(page.indexOf('id="deliveries"'));
    expect(log).toMatch(/HTTP 503 <span class="muted">\(sent by hand\)/);
    expect(log).toContain("<summary>Response body</summary>");
    expect(log).toContain(escaped('{"error":"try later"}'));
    // The payload exactly as it was signed and sent.
    expect(log).toContain("<summary>Request payload</summary>");
    expect(log).toContain(escaped(received.body));
    // No signing secret and no signature header reaches the page.
    expect(page).not.toMatch(SECRET_PATTERN);
    for (const header of ["x-service-signature", "x-service-signature-256", "webhook-signature"]) expect(page).not.toContain(received.headers[header]);

    // The API's delivery read carries the same answer.
    const key = (await issueKey(org.id, "sandbox")).key;
    const served = await call("GET", `${api}/webhooks/${id}/deliveries`, { key });
    expect(served.status).toBe(200);
    expect(served.body.deliveries[0].attempts[0]).toMatchObject({ status_code: 503, response_body: '{"error":"try later"}' });
  });

  it("keeps the first 2 KB of the answer as text: a character cut by the limit and control characters dropped", async () => {
    // "aé" is three bytes: 682 of them fill 2046 bytes, then "a" and the first byte of "é" reach 2048.
    const long = await registered(kind, "status-500", `?body=${encodeURIComponent("aé")}&repeat=1000`);
    await ping(long.session, long.id);
    const noisy = await registered(kind, "status-400", `?body=${encodeURIComponent("ok\u0000\u0001\u001b[31mred\u202Eevil\u2066\r\nline\ttab\u007f")}`);
    await ping(noisy.session, noisy.id);
    const stored = async (endpointId: string) =>
      (await inData.prepare("select a.response_body as body from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.endpoint_id = ?").bind(endpointId).first<{ body: string }>())!.body;
    const kept = await stored(long.id);
    expect(new TextEncoder().encode(kept).length).toBe(2047);
    expect(kept).toBe(`${"aé".repeat(682)}a`);
    expect(await stored(noisy.id)).toBe("ok[31mredevil\nline\ttab");
  });

  it("stores no answer for an attempt that got none, and says so in words", async () => {
    const { session, id } = await registered(kind, "close");
    await ping(session, id);
    const page = (await portal("GET", `/webhooks/${id}`, { session })).text;
    expect(page.slice(page.indexOf('id="deliveries"'))).toMatch(/no answer: the connection failed[^<]*<span class="muted">\(sent by hand\)/);
    const row = await inData.prepare("select a.response_body as body, a.status_code as status from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.endpoint_id = ?")
      .bind(id)
      .first<{ body: string | null; status: number | null }>();
    expect(row).toEqual({ body: null, status: null });
  });
});
