/**
 * Issue 23 item 3: an endpoint's URL, events and payload are changed from its page, through the
 * API's PATCH schema and `changeEndpoint`; refusals are shown beside their field in the person's
 * words; the form carries the session's environment-bound, single-use token; the change is audited.
 */
import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { portal, signedInMember } from "../helpers/portal";
import { createOrganisation, issueKey } from "../helpers/seed";
import { receiverBucket } from "../webhooks/support/webhooks";
import { auditOf, portalPostWith } from "./integration/support";
import { switchTo } from "./partner/helpers";

async function registered(kind: "partner" | "lender") {
  const org = await createOrganisation(kind);
  const session = await signedInMember(org.id);
  const receiver = receiverBucket();
  const events = kind === "partner" ? ["lead.funded"] : ["deal.created"];
  const res = await portal("POST", "/webhooks", { session, form: { url: receiver.url(), events, payload: "full" } });
  expect(res.status).toBe(201);
  const id = /href="\/portal\/webhooks\/(whe_[a-z0-9]+)"/.exec(res.text)![1];
  const key = (await issueKey(org.id, "sandbox")).key;
  return { org, session, receiver, id, key, events };
}

describe.each(["partner", "lender"] as const)("editing a %s's webhook endpoint in the portal", (kind) => {
  const api = kind === "partner" ? "/partner/v1" : "/v1";
  const newEvents = kind === "partner" ? ["lead.submitted", "document.rejected"] : ["deal.updated", "message.created"];

  it("shows the endpoint's settings in the form and changes URL, events and payload as PATCH does, audited", async () => {
    const { org, session, id, key, events } = await registered(kind);
    const page = (await portal("GET", `/webhooks/${id}`, { session })).text;
    expect(page).toContain('<h2 id="edit-endpoint">Change this endpoint</h2>');
    expect(page).toContain(`action="/portal/webhooks/${id}/edit"`);
    expect(page).toMatch(new RegExp(`value="${events[0]}" checked`));
    expect(page).toMatch(/name="payload" value="full" checked/);

    const url = receiverBucket().url("ok", "?moved=1");
    const res = await portal("POST", `/webhooks/${id}/edit`, { session, form: { url, events: newEvents, payload: "reference" } });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`/portal/webhooks/${id}?notice=webhook-updated`);
    expect((await call("GET", `${api}/webhooks/${id}`, { key })).body).toMatchObject({ url, events: newEvents, payload: "reference", active: true });
    const after = (await portal("GET", `/webhooks/${id}?notice=webhook-updated`, { session })).text;
    expect(after).toContain('class="notice" role="status"');
    expect(after).toContain("The webhook endpoint is changed");
    expect(after).toMatch(/name="payload" value="reference" checked/);
    expect((await auditOf(org.id)).map((a) => [a.action, a.target])).toEqual([
      ["webhook.registered", id],
      ["webhook.updated", id],
    ]);
  });

  it("refuses a private URL, no events and the other API's events beside the field, keeping what was typed and changing nothing", async () => {
    const { org, session, id, key, events } = await registered(kind);
    const before = (await call("GET", `${api}/webhooks/${id}`, { key })).body;

    const privateUrl = await portalPostWith({ ALLOW_PRIVATE_WEBHOOKS: "false" }, `/webhooks/${id}/edit`, session, { url: "https://10.1.2.3/hooks", events, payload: "full" });
    expect(privateUrl.status).toBe(400);
    expect(privateUrl.text).toMatch(/<span class="field-error" id="url-error" role="alert">Endpoint URL host is a private[^<]*<\/span>/);
    expect(privateUrl.text).toContain('value="https://10.1.2.3/hooks"');
    expect(privateUrl.text).toContain('aria-invalid="true"');

    const none = await portal("POST", `/webhooks/${id}/edit`, { session, form: { url: before.url, payload: "reference" } });
    expect(none.status).toBe(400);
    expect(none.text).toContain('id="events-error" role="alert">Choose at least one event.</span>');
    expect(none.text).toMatch(/name="payload" value="reference" checked/);

    const foreign = await portal("POST", `/webhooks/${id}/edit`, { session, form: { url: before.url, events: kind === "partner" ? "deal.created" : "lead.funded", payload: "full" } });
    expect(foreign.status).toBe(400);
    expect(foreign.text).toMatch(/id="events-error" role="alert">Choose the events from the list/);

    const notHttps = await portal("POST", `/webhooks/${id}/edit`, { session, form: { url: "not a url", events, payload: "full" } });
    expect(notHttps.status).toBe(400);
    expect(notHttps.text).toContain('id="url-error"');
    // No dotted path and no zod default message reaches the page.
    for (const res of [privateUrl, none, foreign, notHttps]) expect(res.text).not.toMatch(/Invalid input|form\.|body\./);

    expect((await call("GET", `${api}/webhooks/${id}`, { key })).body).toEqual(before);
    expect((await auditOf(org.id)).map((a) => a.action)).toEqual(["webhook.registered"]);
  });

  it("needs the page's form token of the environment shown, and is 404 for another organisation or the other environment", async () => {
    const { session, id, key, events } = await registered(kind);
    const before = (await call("GET", `${api}/webhooks/${id}`, { key })).body;
    const form = { url: receiverBucket().url(), events, payload: "reference" };
    expect((await portal("POST", `/webhooks/${id}/edit`, { session, form, formToken: null })).status).toBe(403);

    const stranger = await signedInMember((await createOrganisation(kind)).id);
    expect((await portal("POST", `/webhooks/${id}/edit`, { session: stranger, form })).status).toBe(404);
    const member = await signedInMember((await registered(kind)).org.id, "member");
    expect((await portal("POST", `/webhooks/${id}/edit`, { session: member, form })).status).toBe(404);

    await switchTo(session, "live");
    expect((await portal("POST", `/webhooks/${id}/edit`, { session, form })).status).toBe(404);
    expect((await call("GET", `${api}/webhooks/${id}`, { key })).body).toEqual(before);
  });
});
