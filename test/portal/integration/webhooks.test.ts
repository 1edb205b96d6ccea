import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../../helpers/api";
import { portal, signedInMember, type PortalSession } from "../../helpers/portal";
import { createOrganisation, issueKey } from "../../helpers/seed";
import { receiverBucket } from "../../webhooks/support/webhooks";
import { auditOf, portalPostWith, SECRET_PATTERN, shownSecret } from "./support";
import { countInData } from "../../helpers/data-db";

const endpointCount = async (organisationId: string) =>
  countInData("select count(*) as n from webhook_endpoints where organisation_id = ?", organisationId);

/** An admin of a new organisation who registered one endpoint on the test receiver through the portal. */
async function registered(kind: "partner" | "lender", behaviour = "ok") {
  const org = await createOrganisation(kind);
  const session = await signedInMember(org.id);
  const receiver = receiverBucket();
  const events = kind === "partner" ? ["lead.funded", "lead.submitted"] : ["deal.created"];
  const res = await portal("POST", "/webhooks", { session, form: { url: receiver.url(behaviour), events, payload: "reference" } });
  expect(res.status).toBe(201);
  const secret = shownSecret(res.text)!;
  const id = /href="\/portal\/webhooks\/(whe_[a-z0-9]+)"/.exec(res.text)![1];
  await receiver.trust(secret);
  return { org, session, receiver, secret, id, events };
}

const detail = (session: PortalSession, id: string, query = "") => portal("GET", `/webhooks/${id}${query}`, { session });

describe.each(["partner", "lender"] as const)("portal webhook endpoints of a %s", (kind) => {
  const api = kind === "partner" ? "/partner/v1" : "/v1";

  it("registers an endpoint on the organisation's own API with the secret shown once", async () => {
    const { org, session, secret, id, events } = await registered(kind);
    expect(secret).toMatch(/^whsec_/);

    const list = await portal("GET", "/webhooks", { session });
    expect(list.status).toBe(200);
    expect(list.text).toContain(`/portal/webhooks/${id}`);
    expect(list.text.match(SECRET_PATTERN)).toBeNull();
    expect((await detail(session, id)).text.match(SECRET_PATTERN)).toBeNull();

    // The same record the API serves, in the member's environment (sandbox) on their organisation's API.
    const key = (await issueKey(org.id, "sandbox")).key;
    const served = await call("GET", `${api}/webhooks/${id}`, { key });
    expect(served.status).toBe(200);
    expect(served.body).toMatchObject({ id, events, payload: "reference", environment: "sandbox", active: true });
    expect(await auditOf(org.id)).toEqual([{ action: "webhook.registered", target: id, environment: "sandbox", member_id: session.memberId }]);
  });

  it("rotates the secret: a new one shown once, then signing every delivery beside the old one", async () => {
    const { org, session, secret, id, receiver } = await registered(kind);
    const rotated = await portal("POST", `/webhooks/${id}/rotate-secret`, { session, form: {} });
    expect(rotated.status).toBe(200);
    const fresh = shownSecret(rotated.text)!;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(secret);
    expect((await detail(session, id)).text).not.toContain(fresh);

    // The receiver trusts only the new secret: the ping verifies with it.
    await receiver.trust(fresh);
    expect((await portal("POST", `/webhooks/${id}/test`, { session, form: {} })).status).toBe(303);
    const [ping] = await receiver.records();
    expect(ping.verified.some((v) => v.plain)).toBe(true);
    expect((await auditOf(org.id)).map((a) => a.action)).toEqual(["webhook.registered", "webhook.secret_rotated", "webhook.test_sent"]);
  });

  it("sends a test ping and shows it in the delivery log with its attempt's status; a re-send adds an attempt", async () => {
    const { org, session, id, receiver } = await registered(kind);
    expect((await detail(session, id)).text).toContain("Nothing has been sent to this endpoint yet.");

    const sent = await portal("POST", `/webhooks/${id}/test`, { session, form: {} });
    expect(sent.status).toBe(303);
    expect(sent.location).toBe(`/portal/webhooks/${id}`);
    const page = await detail(session, id, new URL(sent.headers.get("Location")!, "https://x.test").search);
    expect(page.text).toContain("The test ping was delivered: your receiver answered HTTP 200.");
    expect(page.text).toMatch(/<code>ping<\/code>/);
    expect(page.text).toContain("Delivered");
    expect(page.text).toMatch(/HTTP 200 <span class="muted">\(sent by hand\)/);
    const deliveryId = /data-delivery="(whd_[a-z0-9]+)"/.exec(page.text)![1];
    expect(await receiver.records()).toHaveLength(1);

    const resent = await portal("POST", `/webhooks/${id}/deliveries/${deliveryId}/resend`, { session, form: {} });
    expect(resent.status).toBe(303);
    const after = (await detail(session, id)).text;
    expect(after.match(/HTTP 200 <span class="muted">\(sent by hand\)/g)).toHaveLength(2);
    expect(await receiver.records()).toHaveLength(2);
    expect((await auditOf(org.id)).map((a) => [a.action, a.target])).toEqual([
      ["webhook.registered", id],
      ["webhook.test_sent", id],
      ["webhook.delivery_resent", id],
    ]);
  });

  it("shows a failed attempt's status, and refuses a test to a deactivated endpoint with 409 on its page", async () => {
    const { org, session, id } = await registered(kind, "status-500");
    await portal("POST", `/webhooks/${id}/test`, { session, form: {} });
    const page = (await detail(session, id)).text;
    expect(page).toContain("Failed (no more retries)");
    expect(page).toMatch(/HTTP 500 <span class="muted">\(sent by hand\)/);

    const key = (await issueKey(org.id, "sandbox")).key;
    expect((await call("PATCH", `${api}/webhooks/${id}`, { key, body: { active: false } })).status).toBe(200);
    const refused = await portal("POST", `/webhooks/${id}/test`, { session, form: {} });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain("The endpoint is deactivated");
    expect(refused.text).toContain("Deactivated (by hand)");
    expect(refused.text).toContain("Reactivate this endpoint");

    const reactivated = await portal("POST", `/webhooks/${id}/reactivate`, { session, form: {} });
    expect(reactivated.status).toBe(303);
    expect(reactivated.location).toBe(`/portal/webhooks/${id}`);
    expect((await call("GET", `${api}/webhooks/${id}`, { key })).body).toMatchObject({ active: true, deactivated_reason: null, failure_count: 0 });
    expect((await detail(session, id)).text).not.toContain("Reactivate this endpoint");
    expect((await auditOf(org.id)).map((a) => a.action)).toEqual(["webhook.registered", "webhook.test_sent", "webhook.reactivated"]);
  });

  it("deletes an endpoint: gone from the list, its page 404, audited", async () => {
    const { org, session, id } = await registered(kind);
    // "Delete this endpoint" leads to the question; its form carries the confirmation.
    expect((await detail(session, id)).text).toContain(`href="/portal/webhooks/${id}/delete"`);
    const question = await portal("GET", `/webhooks/${id}/delete`, { session });
    expect(question.status).toBe(200);
    expect(question.text).toContain('<input type="hidden" name="confirmed" value="yes"/>');
    const deleted = await portal("POST", `/webhooks/${id}/delete`, { session, form: { confirmed: "yes" } });
    expect(deleted.status).toBe(303);
    expect(deleted.location).toBe("/portal/webhooks");
    expect((await portal("GET", "/webhooks?notice=webhook-deleted", { session })).text).not.toContain(`/portal/webhooks/${id}`);
    expect((await detail(session, id)).status).toBe(404);
    expect((await auditOf(org.id)).map((a) => a.action)).toEqual(["webhook.registered", "webhook.deleted"]);
  });

  it("refuses a private-address URL beside the url field with 400, and writes nothing", async () => {
    const org = await createOrganisation(kind);
    const session = await signedInMember(org.id);
    const res = await portalPostWith({ ALLOW_PRIVATE_WEBHOOKS: "false" }, "/webhooks", session, { url: "https://10.1.2.3/hooks", events: [kind === "partner" ? "lead.funded" : "deal.created"], payload: "full" });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/<span class="field-error" id="url-error" role="alert">Endpoint URL host is a private[^<]*public hosts only\.<\/span>/);
    expect(res.text).toContain('aria-describedby="url-error"');
    expect(res.text).toContain('value="https://10.1.2.3/hooks"');
    expect(await endpointCount(org.id)).toBe(0);
    expect(await auditOf(org.id)).toEqual([]);
  });

  it("refuses no events and the other API's events beside the events field", async () => {
    const org = await createOrganisation(kind);
    const session = await signedInMember(org.id);
    const url = receiverBucket().url();
    const none = await portal("POST", "/webhooks", { session, form: { url, payload: "full" } });
    expect(none.status).toBe(400);
    expect(none.text).toContain('id="events-error" role="alert">Choose at least one event.</span>');
    const foreign = await portal("POST", "/webhooks", { session, form: { url, events: kind === "partner" ? "deal.created" : "lead.funded", payload: "full" } });
    expect(foreign.status).toBe(400);
    expect(foreign.text).toMatch(/id="events-error" role="alert">Choose the events from the list: only this API&#39;s events can be subscribed to\.</);
    expect(await endpointCount(org.id)).toBe(0);
  });
});

describe("portal webhook endpoints belong to one organisation, environment and API", () => {
  const actions = (id: string): [string, string][] => [
    ["GET", `/webhooks/${id}`],
    ["POST", `/webhooks/${id}/rotate-secret`],
    ["GET", `/webhooks/${id}/delete`],
    ["POST", `/webhooks/${id}/delete`],
    ["POST", `/webhooks/${id}/test`],
    ["POST", `/webhooks/${id}/reactivate`],
    ["POST", `/webhooks/${id}/deliveries/whd_nothing/resend`],
  ];

  it("answers 404 on every page and action for another organisation's endpoint, of either kind", async () => {
    const owner = await registered("partner");
    for (const strangerKind of ["partner", "lender"] as const) {
      const stranger = await signedInMember((await createOrganisation(strangerKind)).id);
      for (const [method, path] of actions(owner.id)) {
        const res = await portal(method, path, { session: stranger, form: method === "POST" ? { confirmed: "yes" } : undefined });
        expect(res.status, `${method} ${path}`).toBe(404);
      }
      expect((await portal("GET", "/webhooks", { session: stranger })).text).not.toContain(owner.id);
    }
    expect(await owner.receiver.records()).toEqual([]);
    expect((await detail(owner.session, owner.id)).status).toBe(200);
  });

  it("answers 404 for the same organisation's endpoint once the member switches to live", async () => {
    const owner = await registered("lender");
    await portal("POST", "/environment", { session: owner.session, form: { environment: "live" } });
    expect((await detail(owner.session, owner.id)).status).toBe(404);
    expect((await portal("GET", "/webhooks", { session: owner.session })).text).not.toContain(owner.id);
  });

  it("answers 404 for a delivery of another endpoint, and keeps a member who is not an admin out", async () => {
    const owner = await registered("partner");
    await portal("POST", `/webhooks/${owner.id}/test`, { session: owner.session, form: {} });
    const deliveryId = /data-delivery="(whd_[a-z0-9]+)"/.exec((await detail(owner.session, owner.id)).text)![1];
    const second = await portal("POST", "/webhooks", { session: owner.session, form: { url: receiverBucket().url(), events: ["lead.funded"], payload: "full" } });
    const secondId = /href="\/portal\/webhooks\/(whe_[a-z0-9]+)"/.exec(second.text)![1];
    expect((await portal("POST", `/webhooks/${secondId}/deliveries/${deliveryId}/resend`, { session: owner.session, form: {} })).status).toBe(404);

    const member = await signedInMember(owner.org.id, "member");
    expect((await portal("GET", "/webhooks", { session: member })).status).toBe(404);
    expect((await portal("POST", "/webhooks", { session: member, form: { url: receiverBucket().url(), events: ["lead.funded"], payload: "full" } })).status).toBe(404);
    for (const [method, path] of actions(owner.id)) {
      expect((await portal(method, path, { session: member, form: method === "POST" ? { confirmed: "yes" } : undefined })).status, `${method} ${path}`).toBe(404);
    }
    expect(await endpointCount(owner.org.id)).toBe(2);
    expect(await owner.receiver.records()).toHaveLength(1);
  });

  it("pages the delivery log with the API's signed cursor, and shows the newest page for a cursor it did not issue", async () => {
    const owner = await registered("partner");
    const key = (await issueKey(owner.org.id, "sandbox")).key;
    for (let i = 0; i < 26; i++) expect((await call("POST", `/partner/v1/webhooks/${owner.id}/test`, { key })).status).toBe(200);
    const first = (await detail(owner.session, owner.id)).text;
    expect(first.match(/data-delivery=/g)).toHaveLength(25);
    const older = /href="(\/portal\/webhooks\/[^"]+\?cursor=[^"]+)">Older deliveries/.exec(first)![1].replace(/&amp;/g, "&");
    const second = await portal("GET", older.replace("/portal", ""), { session: owner.session });
    expect(second.text.match(/data-delivery=/g)).toHaveLength(1);
    const forged = await detail(owner.session, owner.id, "?cursor=forged.cursor");
    expect(forged.status).toBe(400);
    expect(forged.text).toContain("is not a cursor this API issued");
    expect(forged.text.match(/data-delivery=/g)).toHaveLength(25);
  });
});
