import { describe, expect, it } from "vitest";
import { portal, signedInMember } from "../helpers/portal";
import { createOrganisation, lenderWithKeys, partnerWithKeys } from "../helpers/seed";
import { receiverBucket } from "../webhooks/support/webhooks";
import { completeUkLead, createLead } from "../leads/helpers";

/** Each listed lead's reference: the row's name is its copy control (kit/copy.tsx) holding the reference. */
const referencesOf = (html: string) => [...html.matchAll(/<th scope="row"><span class="copyable"><input id="copy-lead-[^"]+" class="copy-field" type="text" readonly="" value="(RF-[A-Z0-9]+)"/g)].map((m) => m[1]);

async function leadNamed(key: string, name: string) {
  const body = completeUkLead() as { business: Record<string, unknown> };
  return createLead(key, { ...body, business: { ...body.business, name } });
}

describe("the leads list (issue 23 items 12 and 14)", () => {
  it("searches by part of the business name or by the reference, clears the filters and says when nothing matches", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const tag = crypto.randomUUID().slice(0, 6);
    const bakery = await leadNamed(sandbox.key, `Crumb_${tag} Bakery Ltd`);
    const garage = await leadNamed(sandbox.key, `Torque ${tag} Garage`);
    // Another organisation's lead of the same name never shows.
    const other = await partnerWithKeys();
    await leadNamed(other.sandbox.key, `Crumb_${tag} Bakery Ltd`);

    const byName = await portal("GET", `/leads?q=${encodeURIComponent(`crumb_${tag}`)}`, { session });
    expect(byName.status).toBe(200);
    expect(referencesOf(byName.text)).toEqual([bakery.reference]);
    expect(byName.text).toContain('<a class="button" href="/portal/leads">Clear filters</a>');
    expect(byName.text).toContain(`value="crumb_${tag}"`);
    const byReference = await portal("GET", `/leads?q=${garage.reference.toLowerCase()}`, { session });
    expect(referencesOf(byReference.text)).toEqual([garage.reference]);
    // `_` and `%` are letters in a search, not wildcards.
    expect(referencesOf((await portal("GET", `/leads?q=${encodeURIComponent(`crumb%${tag}`)}`, { session })).text)).toEqual([]);

    const none = await portal("GET", `/leads?q=nothing-${tag}`, { session });
    expect(none.text).toContain("No leads match this search in the sandbox environment.");
    const all = await portal("GET", "/leads", { session });
    expect(referencesOf(all.text)).toEqual([garage.reference, bakery.reference]);
    expect(all.text).not.toContain("Clear filters");
  });

  it("a bad filter value says so beside its field rather than 'no leads yet'", async () => {
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const state = await portal("GET", "/leads?state=pending", { session });
    expect(state.status).toBe(400);
    expect(state.text).toContain('id="state-error"');
    expect(state.text).not.toContain("No leads");
    const long = await portal("GET", `/leads?q=${"x".repeat(101)}`, { session });
    expect(long.status).toBe(400);
    expect(long.text).toContain('<span class="field-error" id="q-error" role="alert">Search with at most 100 characters');
    const cursor = await portal("GET", "/leads?cursor=forged", { session });
    expect(cursor.status).toBe(400);
    expect(cursor.text).not.toContain("No leads");
  });

  it("pages older and back to the first page, keeping the search", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const tag = crypto.randomUUID().slice(0, 6);
    const made = [];
    for (let i = 0; i < 27; i++) made.push(await leadNamed(sandbox.key, `Paged ${tag} ${i}`));
    const first = await portal("GET", `/leads?q=paged+${tag}`, { session });
    expect(referencesOf(first.text)).toHaveLength(25);
    expect(first.text).not.toContain('rel="first"');
    const older = first.text.match(/<a href="([^"]+)" rel="next">Older leads<\/a>/)![1].replace(/&amp;/g, "&");
    expect(older).toContain(`q=paged+${tag}`);
    const second = await portal("GET", older.replace("/portal", ""), { session });
    expect(referencesOf(second.text)).toEqual([made[1].reference, made[0].reference]);
    expect(second.text).toContain(`<a href="/portal/leads?q=paged+${tag}" rel="first">Newest leads (first page)</a>`);
    expect(second.text).not.toContain('rel="next"');
  });

  it("draws every list with the one table: a card per row below 600 px, each cell labelled, buttons in an actions cell", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "admin");
    await createLead(sandbox.key);
    const leads = await portal("GET", "/leads", { session });
    expect(leads.text).toContain('<table class="records">');
    expect(leads.text).toContain('<td data-label="Business">');
    expect(leads.text).toContain("@media (max-width:37.5rem){table.records,table.records tbody,table.records tr");
    const members = await portal("GET", "/members", { session });
    expect(members.text).toMatch(/<table class="records">.*<th scope="row">(?:<span[^>]*>)?[^<]+@example.test(?:<\/span>)?<\/th>/s);
    const audit = await portal("GET", "/audit", { session });
    expect(audit.status).toBe(200);
  });

  it("a refused query on every list page is that page again with the message, as HTML: never JSON, never a 500", async () => {
    const partner = await partnerWithKeys();
    const partnerAdmin = await signedInMember(partner.organisation.id, "admin");
    const lender = await signedInMember((await lenderWithKeys()).organisation.id, "admin");
    const hook = await portal("POST", "/webhooks", { session: partnerAdmin, form: { url: receiverBucket().url("ok"), events: ["lead.funded"], payload: "reference" } });
    const endpoint = /href="\/portal\/webhooks\/(whe_[a-z0-9]+)"/.exec(hook.text)![1];
    // Each list with a cursor it did not issue, and with a filter it does not know; the page's own mark shows it is that list's page.
    const cases = [
      { session: partnerAdmin, path: "/leads?cursor=forged", page: 'action="/portal/leads"', field: null },
      { session: partnerAdmin, path: "/leads?state=pending", page: 'action="/portal/leads"', field: "state" },
      { session: partnerAdmin, path: "/events?cursor=forged", page: 'action="/portal/events"', field: null },
      { session: partnerAdmin, path: "/events?event=lead.exploded", page: 'action="/portal/events"', field: "event" },
      { session: partnerAdmin, path: `/webhooks/${endpoint}?cursor=forged`, page: ">Webhook endpoint<", field: null },
      { session: partnerAdmin, path: "/audit?cursor=forged", page: "That page of the audit log does not exist", field: null },
      { session: lender, path: "/deals?cursor=forged", page: "That page of deals does not exist", field: null },
      { session: lender, path: "/deals?status=exploded", page: 'action="/portal/deals"', field: "status" },
    ];
    for (const { session, path, page, field } of cases) {
      const res = await portal("GET", path, { session });
      expect(res.status, path).toBe(400);
      expect(res.headers.get("Content-Type"), path).toMatch(/^text\/html/);
      expect(res.text, path).toContain(page);
      expect(res.text, path).toContain('aria-label="Portal"');
      // The message: beside the field asked for, or above the list for a cursor (no field shows one); the audit log says it as its page.
      if (!path.startsWith("/audit")) expect(res.text, path).toContain('role="alert"');
      if (field) expect(res.text, path).toContain(`id="${field}-error"`);
    }
    // A page of the other kind of organisation is the portal's one 404 page, inside its navigation.
    const deals = await portal("GET", "/deals", { session: partnerAdmin });
    expect(deals.status).toBe(404);
    expect(deals.text).toContain('aria-label="Portal"');
    expect(deals.text).toContain("There is no such page in the portal, or it belongs to another organisation");
    const member = await signedInMember((await createOrganisation("partner")).id, "member");
    const audit = await portal("GET", "/audit", { session: member });
    expect(audit.status).toBe(404);
    expect(audit.text).toContain('aria-label="Portal"');
  });
});
