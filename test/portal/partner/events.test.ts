import { describe, expect, it } from "vitest";
import { portal, signedInMember } from "../../helpers/portal";
import { partnerWithKeys } from "../../helpers/seed";
import { firmOffer, makeOffer, routedLead } from "../../lender/helpers";
import { submittedLead, twoLenderPanel } from "../../routing/helpers";
import { switchTo } from "./helpers";

const eventRows = (html: string) => [...html.matchAll(/<summary>[^<]*<code>([a-z_.]+)<\/code>\s*<\/summary>/g)].map((m) => m[1]);

describe("portal event log (partners and lenders)", () => {
  it("shows a partner its own events in the picked environment, filtered and paged", async () => {
    await twoLenderPanel();
    const { organisation, sandbox } = await partnerWithKeys();
    const mine = await submittedLead(sandbox.key);
    const other = await partnerWithKeys();
    const theirs = await submittedLead(other.sandbox.key);
    const session = await signedInMember(organisation.id, "member");

    const page = await portal("GET", "/events", { session });
    expect(page.status).toBe(200);
    // One submission's events share their instant, so their order among themselves is not asserted.
    expect(eventRows(page.text).sort()).toEqual(["lead.matched", "lead.offers_available", "lead.submitted"]);
    expect(page.text).toContain(`href="/portal/leads/${mine.lead.id}"`);
    expect(page.text).not.toContain(theirs.lead.id);
    expect(eventRows((await portal("GET", "/events?event=lead.matched", { session })).text)).toEqual(["lead.matched"]);
    expect(eventRows((await portal("GET", `/events?subject=${theirs.lead.id}`, { session })).text)).toEqual([]);

    for (let i = 0; i < 8; i++) await submittedLead(sandbox.key);
    const first = await portal("GET", "/events", { session });
    expect(eventRows(first.text)).toHaveLength(25);
    const next = first.text.match(/href="\/portal(\/events\?cursor=[^"]+)"/)![1].replace(/&amp;/g, "&");
    expect(eventRows((await portal("GET", next, { session })).text)).toHaveLength(2);

    const bad = await portal("GET", "/events?event=deal.created", { session });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('id="event-error"');
    expect((await portal("GET", "/events?cursor=forged", { session })).status).toBe(400);

    await switchTo(session, "live");
    expect(eventRows((await portal("GET", "/events", { session })).text)).toEqual([]);
  });

  it("shows a lender its own lender events, in live when picked", async () => {
    const { keys, refA, a, b } = await routedLead();
    await makeOffer(keys.a.live, refA, firmOffer());
    const session = await signedInMember(a.id, "member");
    expect(eventRows((await portal("GET", "/events", { session })).text)).toEqual([]);
    await switchTo(session, "live");
    const page = await portal("GET", "/events", { session });
    expect(page.status).toBe(200);
    const names = eventRows(page.text);
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => !n.startsWith("lead."))).toBe(true);
    expect(page.text).toContain(refA);
    const otherLender = await signedInMember(b.id, "member");
    await switchTo(otherLender, "live");
    expect((await portal("GET", "/events", { session: otherLender })).text).not.toContain(refA);
  });
});
