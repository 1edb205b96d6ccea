/**
 * Issue 23 item 12 (events): the portal's events filter takes the reference a person sees (`RF-…`
 * for a partner's lead, `DL-…` for a lender's deal) as well as the id; events written in the same
 * instant are listed in the order they were written (newest first); a filter naming nothing of the
 * member's says so beside the field instead of "No events".
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/client";
import { eventInsert } from "../../src/db/webhooks/events";
import { portal, signedInMember } from "../helpers/portal";
import { partnerWithKeys } from "../helpers/seed";
import { firmOffer, makeOffer, routedLead } from "../lender/helpers";
import { submittedLead, twoLenderPanel } from "../routing/helpers";
import { switchTo } from "./partner/helpers";

const eventRows = (html: string) => [...html.matchAll(/<summary>[^<]*<code>([a-z_.]+)<\/code>\s*<\/summary>/g)].map((m) => m[1]);

describe("the portal's events filter", () => {
  it("finds a partner's lead by its RF- reference (any case) as by its id, and only the member's own", async () => {
    await twoLenderPanel();
    const { organisation, sandbox } = await partnerWithKeys();
    const mine = await submittedLead(sandbox.key);
    await submittedLead(sandbox.key);
    const session = await signedInMember(organisation.id, "member");
    const reference = mine.submit.reference as string;
    expect(reference).toMatch(/^RF-/);

    const byId = eventRows((await portal("GET", `/events?subject=${mine.lead.id}`, { session })).text);
    expect(byId.sort()).toEqual(["lead.matched", "lead.offers_available", "lead.submitted"]);
    for (const typed of [reference, reference.toLowerCase(), ` ${reference} `]) {
      const page = await portal("GET", `/events?subject=${encodeURIComponent(typed)}`, { session });
      expect(page.status, typed).toBe(200);
      expect(eventRows(page.text).sort(), typed).toEqual(byId.sort());
    }
    expect(eventRows((await portal("GET", `/events?subject=${reference}&event=lead.matched`, { session })).text)).toEqual(["lead.matched"]);

    // Another partner's reference is no lead of this member's.
    const other = await partnerWithKeys();
    const theirs = await submittedLead(other.sandbox.key);
    const refused = await portal("GET", `/events?subject=${theirs.submit.reference}`, { session });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(`id="subject-error" role="alert">No lead with reference ${theirs.submit.reference}.</span>`);
    expect(refused.text).not.toContain("No events");
    expect(refused.text).not.toContain(theirs.lead.id);
  });

  it("says a reference or id names nothing of the member's rather than showing no events", async () => {
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const unknownRef = await portal("GET", "/events?subject=RF-XXXXXX", { session });
    expect(unknownRef.status).toBe(400);
    expect(unknownRef.text).toContain('id="subject-error" role="alert">No lead with reference RF-XXXXXX.</span>');
    expect(unknownRef.text).toContain('value="RF-XXXXXX"');
    expect(unknownRef.text).not.toContain("No events");
    const unknownId = await portal("GET", "/events?subject=lead_nothing", { session });
    expect(unknownId.status).toBe(400);
    expect(unknownId.text).toContain('id="subject-error" role="alert">No lead with id lead_nothing.</span>');
    // No filter and nothing written yet: the empty log says so.
    expect((await portal("GET", "/events", { session })).text).toContain("No events yet.");
  });

  it("finds a lender's deal by its DL- reference in any case, and says when no deal has it", async () => {
    const { keys, refA, a } = await routedLead();
    await makeOffer(keys.a.live, refA, firmOffer());
    const session = await signedInMember(a.id, "member");
    await switchTo(session, "live");
    const all = eventRows((await portal("GET", "/events", { session })).text);
    expect(all.length).toBeGreaterThan(0);
    const byRef = await portal("GET", `/events?subject=${refA.toLowerCase()}`, { session });
    expect(byRef.status).toBe(200);
    expect(eventRows(byRef.text).length).toBeGreaterThan(0);
    const unknown = await portal("GET", "/events?subject=DL-ZZZZZZZZ", { session });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('id="subject-error" role="alert">No deal with reference DL-ZZZZZZZZ.</span>');
  });

  it("lists events written in the same instant in the order they were written, newest first", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const { lead } = await submittedLead(sandbox.key);
    const session = await signedInMember(organisation.id, "member");
    const db = database(env.DB_SANDBOX);
    const at = new Date(Date.now() + 60_000).toISOString();
    const order = ["lead.submitted", "lead.matched", "lead.offers_available", "lead.offer_accepted", "lead.funded", "lead.declined"];
    // Written one by one with one timestamp: only the order of writing tells them apart.
    for (const name of order) {
      await eventInsert(db, { organisationId: organisation.id, environment: "sandbox", api: "partner", event: name, subjectType: "lead", subjectId: lead.id }, at).run();
    }
    const page = await portal("GET", `/events?subject=${lead.id}`, { session });
    expect(eventRows(page.text).slice(0, order.length)).toEqual([...order].reverse());
  });
});
