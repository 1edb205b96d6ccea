/**
 * Issue 23 item 3: an endpoint's description (a person's label such as "Production CRM") is given in
 * the register form, shown in the endpoint list and on the endpoint's page, changed and cleared in the
 * edit form, through the API's schemas and services; a refused one is shown beside its field in the
 * person's words (the one messages map), with what was typed kept and nothing changed.
 */
import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { portal, signedInMember } from "../helpers/portal";
import { createOrganisation, issueKey } from "../helpers/seed";
import { receiverBucket } from "../webhooks/support/webhooks";
import { auditOf } from "./integration/support";

const idIn = (html: string) => /href="\/portal\/webhooks\/(whe_[a-z0-9]+)"/.exec(html)![1];

describe.each(["partner", "lender"] as const)("a %s's webhook endpoint description in the portal", (kind) => {
  const api = kind === "partner" ? "/partner/v1" : "/v1";
  const events = kind === "partner" ? ["lead.funded"] : ["deal.created"];

  async function member() {
    const org = await createOrganisation(kind);
    const session = await signedInMember(org.id);
    const key = (await issueKey(org.id, "sandbox")).key;
    return { org, session, key };
  }

  it("is given at registration, listed, shown on the page and in the edit form, changed and cleared", async () => {
    const { org, session, key } = await member();
    const form = (await portal("GET", "/webhooks", { session })).text;
    expect(form).toMatch(/<label for="description">Description \(optional\)<\/label>/);
    expect(form).toMatch(/<input type="text" id="description" name="description" value="" maxlength="200"/);

    const registered = await portal("POST", "/webhooks", { session, form: { url: receiverBucket().url(), description: "  Production CRM ", events, payload: "full" } });
    expect(registered.status).toBe(201);
    const id = idIn(registered.text);
    expect((await call("GET", `${api}/webhooks/${id}`, { key })).body.description).toBe("Production CRM");

    const list = (await portal("GET", "/webhooks", { session })).text;
    expect(list).toMatch(new RegExp(`<strong><bdi>Production CRM</bdi></strong></div><a href="/portal/webhooks/${id}">`));

    const page = (await portal("GET", `/webhooks/${id}`, { session })).text;
    expect(page).toContain('<dt style="font-weight:600">Description</dt><dd><bdi>Production CRM</bdi></dd>');
    expect(page).toContain('name="description" value="Production CRM"');

    const changed = await portal("POST", `/webhooks/${id}/edit`, { session, form: { url: receiverBucket().url(), description: "Staging <CRM> & co", events, payload: "full" } });
    expect(changed.status).toBe(303);
    expect((await call("GET", `${api}/webhooks/${id}`, { key })).body.description).toBe("Staging <CRM> & co");
    // Shown as text, never as markup.
    expect((await portal("GET", `/webhooks/${id}`, { session })).text).toContain("<dd><bdi>Staging &lt;CRM&gt; &amp; co</bdi></dd>");

    const cleared = await portal("POST", `/webhooks/${id}/edit`, { session, form: { url: receiverBucket().url(), description: "", events, payload: "full" } });
    expect(cleared.status).toBe(303);
    expect((await call("GET", `${api}/webhooks/${id}`, { key })).body.description).toBeNull();
    const after = (await portal("GET", `/webhooks/${id}`, { session })).text;
    expect(after).toContain('<dt style="font-weight:600">Description</dt><dd><span class="muted">none</span></dd>');
    expect(after).toContain('name="description" value=""');
    expect((await auditOf(org.id)).map((a) => a.action)).toEqual(["webhook.registered", "webhook.updated", "webhook.updated"]);
  });

  it.each([
    ["too long", "x".repeat(201), "Description must be at most 200 characters."],
    ["a line break", "Production\nCRM", "Write the description as plain text on one line: no tabs, line breaks, invisible or text-direction characters."],
    ["a right-to-left override", "Production \u202eMRC", "Write the description as plain text on one line: no tabs, line breaks, invisible or text-direction characters."],
  ])("refuses a description with %s beside the field in the person's words, keeping what was typed", async (_label, description, message) => {
    const { session, key } = await member();
    const error = `<span class="field-error" id="description-error" role="alert">${message}</span>`;

    const register = await portal("POST", "/webhooks", { session, form: { url: receiverBucket().url(), description, events, payload: "full" } });
    expect(register.status).toBe(400);
    expect(register.text).toContain(error);
    expect(register.text).toMatch(/name="description" value="[^"]*" maxlength="200" placeholder="Production CRM" aria-invalid="true" aria-describedby="description-error description-hint" autofocus=""/);
    expect((await call("GET", `${api}/webhooks`, { key })).body.webhooks).toEqual([]);

    const made = await portal("POST", "/webhooks", { session, form: { url: receiverBucket().url(), description: "Production CRM", events, payload: "full" } });
    const id = idIn(made.text);
    const before = (await call("GET", `${api}/webhooks/${id}`, { key })).body;
    const edit = await portal("POST", `/webhooks/${id}/edit`, { session, form: { url: before.url, description, events, payload: "reference" } });
    expect(edit.status).toBe(400);
    expect(edit.text).toContain(error);
    expect(edit.text).toMatch(/name="payload" value="reference" checked/);
    for (const res of [register, edit]) expect(res.text).not.toMatch(/Invalid input|Too big|description:|control or text-direction/);
    expect((await call("GET", `${api}/webhooks/${id}`, { key })).body).toEqual(before);
  });
});
