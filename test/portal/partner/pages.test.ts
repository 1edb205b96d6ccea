import { describe, expect, it } from "vitest";
import { createLead } from "../../leads/helpers";
import { portal, signedInMember } from "../../helpers/portal";
import { createOrganisation, partnerWithKeys } from "../../helpers/seed";
import { switchTo } from "./helpers";

describe("partner portal pages: overview, list, detail, reach", () => {
  it("counts this month's leads per state in the picked environment only", async () => {
    const { organisation, sandbox, live } = await partnerWithKeys();
    await createLead(sandbox.key);
    await createLead(sandbox.key);
    await createLead(live.key);
    const session = await signedInMember(organisation.id, "member");
    const page = await portal("GET", "/", { session });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<td data-state="draft">2</td>');
    expect(page.text).toContain('<td data-state="all">2</td>');
    await switchTo(session, "live");
    expect((await portal("GET", "/", { session })).text).toContain('<td data-state="all">1</td>');
  });

  it("gives a lender's member 404 on every partner page, and the shared event log", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key);
    const lender = await createOrganisation("lender");
    const session = await signedInMember(lender.id, "admin");
    for (const path of ["/leads", "/leads/new", `/leads/${lead.id}`, `/leads/${lead.id}/edit`, "/prequalification"]) {
      expect((await portal("GET", path, { session })).status, path).toBe(404);
    }
    expect((await portal("POST", "/leads/new", { session, form: { country: "GB" } })).status).toBe(404);
    expect((await portal("POST", "/prequalification", { session, form: { country: "GB" } })).status).toBe(404);
    expect((await portal("GET", "/events", { session })).status).toBe(200);
  });

  it("lists leads newest first with state and market filters and keyset paging", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const ids: string[] = [];
    for (let i = 0; i < 26; i++) ids.push((await createLead(sandbox.key)).id);
    const us = await createLead(sandbox.key, { country: "US", business: { name: "Gadgets Inc" } });
    const session = await signedInMember(organisation.id, "member");

    const first = await portal("GET", "/leads", { session });
    expect(first.status).toBe(200);
    const idsOn = (html: string) => [...html.matchAll(/href="\/portal\/leads\/([0-9a-f-]{36})"/g)].map((m) => m[1]);
    expect(idsOn(first.text)).toHaveLength(25);
    expect(idsOn(first.text)[0]).toBe(us.id);
    const next = first.text.match(/href="(\/portal\/leads\?cursor=[^"]+)"/)![1].replace(/&amp;/g, "&");
    const second = await portal("GET", next.replace("/portal", ""), { session });
    expect(second.status).toBe(200);
    expect(idsOn(second.text)).toHaveLength(2);
    expect(new Set([...idsOn(first.text), ...idsOn(second.text)])).toEqual(new Set([...ids, us.id]));

    const market = await portal("GET", "/leads?market=US", { session });
    expect(idsOn(market.text)).toEqual([us.id]);
    const none = await portal("GET", "/leads?state=funded", { session });
    expect(idsOn(none.text)).toEqual([]);
    const drafts = await portal("GET", "/leads?state=draft&market=GB", { session });
    expect(idsOn(drafts.text)).toHaveLength(25);

    const badState = await portal("GET", "/leads?state=lost", { session });
    expect(badState.status).toBe(400);
    expect(badState.text).toContain('id="state-error"');
    const badCursor = await portal("GET", "/leads?cursor=forged", { session });
    expect(badCursor.status).toBe(400);
    expect(badCursor.text).toContain("is not a cursor this API issued");
  });

  it("shows a lead's detail, and answers 404 for another organisation's lead and for a live lead seen from the sandbox", async () => {
    const { organisation, sandbox, live } = await partnerWithKeys();
    const mine = await createLead(sandbox.key);
    const liveLead = await createLead(live.key);
    const other = await partnerWithKeys();
    const theirs = await createLead(other.sandbox.key);
    const session = await signedInMember(organisation.id, "member");

    const page = await portal("GET", `/leads/${mine.id}`, { session });
    expect(page.status).toBe(200);
    expect(page.text).toContain(mine.reference);
    expect(page.text).toContain("Widgets Ltd");
    expect(page.text).toContain("Applicant&#39;s band");
    expect(page.text).toContain("The lead was created");

    expect((await portal("GET", `/leads/${theirs.id}`, { session })).status).toBe(404);
    expect((await portal("GET", `/leads/${theirs.id}/edit`, { session })).status).toBe(404);
    expect((await portal("POST", `/leads/${theirs.id}/submit`, { session, form: {} })).status).toBe(404);
    expect((await portal("GET", `/leads/${liveLead.id}`, { session })).status).toBe(404);
    expect((await portal("GET", "/leads/not-a-lead", { session })).status).toBe(404);
    await switchTo(session, "live");
    expect((await portal("GET", `/leads/${liveLead.id}`, { session })).status).toBe(200);
    expect((await portal("GET", `/leads/${mine.id}`, { session })).status).toBe(404);
  });
});
