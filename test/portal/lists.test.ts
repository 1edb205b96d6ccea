import { describe, expect, it } from "vitest";
import { portal, signedInMember } from "../helpers/portal";
import { partnerWithKeys } from "../helpers/seed";
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
});
