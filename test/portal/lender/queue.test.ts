/** The lender's work queue (deals waiting on the lender, with the count in the nav) and the confirmation before waiving a request. */
import { describe, expect, it } from "vitest";
import { call } from "../../helpers/api";
import { portal, signedInMember } from "../../helpers/portal";
import { lenderWithKeys, partnerWithKeys } from "../../helpers/seed";
import { firmOffer, makeOffer, pdfBytes } from "../../lender/helpers";
import { auditOf, liveSession } from "./support";
import { env } from "cloudflare:workers";
import { acceptedHubLead, hubCall } from "../../hub/helpers";

const testDeal = async (key: string) => {
  const res = await call("POST", "/v1/test/deals", { key, body: {} });
  if (res.status !== 201) throw new Error(`test deal: ${res.status} ${res.text}`);
  return res.body.ref as string;
};
const simulate = async (key: string, ref: string, event: string) => {
  const res = await call("POST", `/v1/test/deals/${ref}/simulate`, { key, body: { event } });
  if (res.status !== 200) throw new Error(`simulate ${event}: ${res.status} ${res.text}`);
};

/** The deal refs the queue lists under a stage. */
const inStage = (html: string, stage: string) => {
  const section = html.match(new RegExp(`<section[^>]*data-stage="${stage}"[^>]*>([\\s\\S]*?)</section>`))?.[1] ?? "";
  return [...section.matchAll(/<li data-deal="([^"]+)"/g)].map((m) => m[1]);
};
const navCount = (html: string) => Number(html.match(/Work queue \((\d+)\)/)?.[1]);

describe("lender work queue", () => {
  it("lists the deals waiting on the lender by stage, nearest to funding first, and counts them in the nav; done and waiting-on-others deals are left out", async () => {
    const lender = await lenderWithKeys();
    const key = lender.sandbox.key;
    const session = await signedInMember(lender.organisation.id, "member");
    const empty = await portal("GET", "/queue", { session });
    expect(empty.status).toBe(200);
    expect(empty.text).toContain('id="queue-empty"');
    expect(navCount(empty.text)).toBe(0);

    const fresh = await testDeal(key);
    const offered = await testDeal(key); // offer made, waiting on the business: not in the queue
    await makeOffer(key, offered, firmOffer());
    const accepted = await testDeal(key);
    await makeOffer(key, accepted, firmOffer());
    await simulate(key, accepted, "offer.accepted");
    const accountGiven = await testDeal(key);
    await makeOffer(key, accountGiven, firmOffer());
    await simulate(key, accountGiven, "offer.accepted");
    await simulate(key, accountGiven, "deal.account_submitted");
    const signed = await testDeal(key);
    await makeOffer(key, signed, firmOffer());
    await simulate(key, signed, "offer.accepted");
    await simulate(key, signed, "deal.account_submitted");
    await call("PUT", `/v1/deals/${signed}/agreement`, { key, rawBody: pdfBytes(), contentType: "application/pdf" });
    await simulate(key, signed, "deal.agreement_signed");
    const declined = await testDeal(key);
    await call("POST", `/v1/deals/${declined}/status`, { key, body: { status: "declined", reason: "Outside appetite" } });

    const queue = await portal("GET", "/queue", { session });
    expect(inStage(queue.text, "signed")).toEqual([signed]);
    expect(inStage(queue.text, "account_given")).toEqual([accountGiven]);
    expect(inStage(queue.text, "offer_accepted")).toEqual([accepted]);
    expect(inStage(queue.text, "new")).toEqual([fresh]);
    expect(queue.text).not.toContain(offered);
    expect(queue.text).not.toContain(declined);
    // The stages in their order: signed before account given before offer accepted before new.
    const order = ["signed", "account_given", "offer_accepted", "new"].map((s) => queue.text.indexOf(`data-stage="${s}"`));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Every lender page carries the count.
    expect(navCount(queue.text)).toBe(4);
    expect(navCount((await portal("GET", "/deals", { session })).text)).toBe(4);

    // A declined deal shows its outcome, not dead forms.
    const page = await portal("GET", `/deals/${declined}`, { session });
    expect(page.text).toContain('data-outcome="declined"');
    expect(page.text).toContain("Outside appetite");
    expect(page.text).not.toContain(`action="/portal/deals/${declined}/offers"`);
    expect(page.text).not.toContain(`action="/portal/deals/${declined}/status"`);

    // The live queue holds none of these sandbox deals.
    await portal("POST", "/environment", { session, form: { environment: "live" } });
    const live = await portal("GET", "/queue", { session });
    expect(navCount(live.text)).toBe(0);
    expect(live.text).not.toContain(fresh);
  });

  it("never shows another lender's deals, and answers 404 to a partner's member", async () => {
    const mine = await lenderWithKeys();
    const other = await lenderWithKeys();
    const theirs = await testDeal(other.sandbox.key);
    const session = await signedInMember(mine.organisation.id, "member");
    const queue = await portal("GET", "/queue", { session });
    expect(queue.text).not.toContain(theirs);
    expect(navCount(queue.text)).toBe(0);
    const partner = await partnerWithKeys();
    expect((await portal("GET", "/queue", { session: await signedInMember(partner.organisation.id, "admin") })).status).toBe(404);
  });
});

describe("the working set (issue 45 item 5)", () => {
  it("keeps a deal in review in the queue, and brings back a deal waiting on the business when the client replies or uploads; each deal says its age", async () => {
    const lender = await lenderWithKeys();
    const key = lender.sandbox.key;
    const session = await signedInMember(lender.organisation.id, "member");
    const reviewed = await testDeal(key);
    expect((await portal("POST", `/deals/${reviewed}/status`, { session, form: { status: "in_review" } })).status).toBe(303);
    const replied = await testDeal(key);
    await makeOffer(key, replied, firmOffer());
    await call("POST", `/v1/deals/${replied}/messages`, { key, body: { body: "Anything else to add?" } });
    const uploaded = await testDeal(key);
    await makeOffer(key, uploaded, firmOffer());
    await call("POST", `/v1/deals/${uploaded}/requests`, { key, body: { item_type: "vat_returns" } });
    // Waiting on the business: neither is in the queue yet.
    let queue = await portal("GET", "/queue", { session });
    expect(inStage(queue.text, "in_review")).toEqual([reviewed]);
    expect(queue.text).not.toContain(`data-deal="${replied}"`);
    expect(queue.text).not.toContain(`data-deal="${uploaded}"`);

    await simulate(key, replied, "message.created");
    await simulate(key, uploaded, "request.fulfilled");
    queue = await portal("GET", "/queue", { session });
    expect(inStage(queue.text, "client_replied")).toEqual([replied]);
    expect(inStage(queue.text, "documents_arrived")).toEqual([uploaded]);
    expect(queue.text).toContain(">Client replied (1)</h2>");
    expect(queue.text).toContain(">Documents arrived (1)</h2>");
    expect(queue.text).toContain(">In review: offer or decline (1)</h2>");
    expect(queue.text).toMatch(/<span data-age="[^"]*">Received today<\/span>/);
    expect(navCount(queue.text)).toBe(3);
    // The deal page names the same stage.
    expect((await portal("GET", `/deals/${replied}`, { session })).text).toContain('data-stage="client_replied"');

    // Answering the client clears the reply; the upload waits until its files are read or the request waived.
    await call("POST", `/v1/deals/${replied}/messages`, { key, body: { body: "Thanks, we will be in touch." } });
    const id = (await call("GET", `/v1/deals/${uploaded}/requests`, { key })).body.requests[0].id as string;
    await call("GET", `/v1/deals/${uploaded}/requests/${id}/files`, { key });
    queue = await portal("GET", "/queue", { session });
    expect(queue.text).not.toContain(`data-deal="${replied}"`);
    expect(queue.text).not.toContain(`data-deal="${uploaded}"`);
    expect(navCount(queue.text)).toBe(1);
  });

  it("assigns a deal to a colleague, and Mine lists only the viewer's deals; a stranger cannot be assigned", async () => {
    const lender = await lenderWithKeys();
    const key = lender.sandbox.key;
    const ana = await signedInMember(lender.organisation.id, "member");
    const ben = await signedInMember(lender.organisation.id, "member");
    const first = await testDeal(key);
    const second = await testDeal(key);
    const page = await portal("GET", `/deals/${first}`, { session: ana });
    expect(page.text).toContain(`<option value="${ben.memberId}"`);
    expect((await portal("POST", `/deals/${first}/assign`, { session: ana, form: { assignee: ben.memberId } })).status).toBe(303);
    expect((await portal("POST", `/deals/${second}/assign`, { session: ana, form: { assignee: ana.memberId } })).status).toBe(303);
    expect(await auditOf(ana)).toEqual([
      { action: "deal.assigned", target: first, environment: "sandbox" },
      { action: "deal.assigned", target: second, environment: "sandbox" },
    ]);
    const mineAna = await portal("GET", "/queue?mine=1", { session: ana });
    expect(inStage(mineAna.text, "new")).toEqual([second]);
    expect(mineAna.text).toContain('aria-current="page">Mine');
    expect(inStage((await portal("GET", "/queue?mine=1", { session: ben })).text, "new")).toEqual([first]);
    const all = await portal("GET", "/queue", { session: ben });
    expect(inStage(all.text, "new").sort()).toEqual([first, second].sort());
    expect(all.text).toMatch(new RegExp(`data-deal="${first}"[\\s\\S]*?<span data-assignee="[^"]*">assigned to you</span>`));

    const stranger = await signedInMember((await lenderWithKeys()).organisation.id, "member");
    const refused = await portal("POST", `/deals/${first}/assign`, { session: ana, form: { assignee: stranger.memberId } });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/<span class="field-error" id="assignee-error" role="alert">Choose a colleague from the list\./);
    expect(inStage((await portal("GET", "/queue?mine=1", { session: ben })).text, "new")).toEqual([first]);
    // Another lender's member cannot assign, or read, this deal.
    expect((await portal("POST", `/deals/${first}/assign`, { session: stranger, form: { assignee: stranger.memberId } })).status).toBe(404);
  });

  it("keeps internal notes for the lender's members only: never on the partner's pages or API, the lender API, an event or the client hub", async () => {
    const routed = await acceptedHubLead();
    const session = await liveSession(routed.a.id);
    const colleague = await liveSession(routed.a.id);
    const secret = "Director has a CCJ from 2019: ask before a firm offer";
    const saved = await portal("POST", `/deals/${routed.refA}/notes`, { session, form: { note_body: secret } });
    expect(saved.status).toBe(303);
    expect((await portal("GET", `/deals/${routed.refA}`, { session: colleague })).text).toContain(secret.replace(/:/g, ":"));
    const empty = await portal("POST", `/deals/${routed.refA}/notes`, { session, form: { note_body: "   " } });
    expect(empty.status).toBe(400);
    expect(empty.text).toMatch(/id="note_body-error"[^>]*>Write the note before saving it\./);

    const partnerSession = await liveSession(routed.partner.organisation.id, "admin");
    const partnerPage = await portal("GET", `/leads/${routed.lead.id}`, { session: partnerSession });
    expect(partnerPage.status).toBe(200);
    expect(partnerPage.text).not.toContain("CCJ from 2019");
    expect((await call("GET", `/partner/v1/leads/${routed.lead.id}`, { key: routed.partner.live.key })).text).not.toContain("CCJ from 2019");
    expect((await call("GET", `/v1/deals/${routed.refA}`, { key: routed.keys.a.live })).text).not.toContain("CCJ from 2019");
    const hub = await hubCall("GET", routed.hub);
    expect(hub.status).toBe(200);
    expect(hub.text).not.toContain("CCJ from 2019");
    const { n } = (await env.DB.prepare("select count(*) n from events where detail like ?").bind("%CCJ from 2019%").first<{ n: number }>())!;
    expect(n).toBe(0);
    // The other lender on the same lead neither sees the note nor can write one on A's deal.
    const other = await liveSession(routed.b.id);
    expect((await portal("GET", `/deals/${routed.refB}`, { session: other })).text).not.toContain("CCJ from 2019");
    expect((await portal("POST", `/deals/${routed.refA}/notes`, { session: other, form: { note_body: "hello" } })).status).toBe(404);
    expect((await auditOf(session)).map((a) => a.action)).toEqual(["deal.note_added"]);
  });
});

describe("confirming a waiver", () => {
  it("asks first: the Waive button opens a confirmation page, a post without it waives nothing, the confirmed post waives", async () => {
    const lender = await lenderWithKeys();
    const key = lender.sandbox.key;
    const ref = await testDeal(key);
    const asked = await call("POST", `/v1/deals/${ref}/requests`, { key, body: { item_type: "vat_returns" } });
    const id = asked.body.request.id as string;
    const session = await signedInMember(lender.organisation.id, "member");

    const deal = await portal("GET", `/deals/${ref}`, { session });
    expect(deal.text).toContain(`<form method="get" action="/portal/deals/${ref}/requests/${id}/waive">`);
    const question = await portal("GET", `/deals/${ref}/requests/${id}/waive`, { session });
    expect(question.status).toBe(200);
    expect(question.text).toContain("Waive this document request?");
    expect(question.text).toContain("Recent VAT returns");
    expect(question.text).toContain('name="confirmed" value="yes"');
    expect(question.text).toContain(`href="/portal/deals/${ref}#requests"`);

    // Posted without the confirmation (a stale page, a script): sent to the question, nothing waived, nothing audited.
    const unconfirmed = await portal("POST", `/deals/${ref}/requests/${id}/waive`, { session, form: {} });
    expect(unconfirmed.status).toBe(303);
    expect(unconfirmed.location).toBe(`/portal/deals/${ref}/requests/${id}/waive`);
    expect((await call("GET", `/v1/deals/${ref}/requests`, { key })).body.requests[0].status).toBe("requested");
    expect(await auditOf(session)).toEqual([]);

    const confirmed = await portal("POST", `/deals/${ref}/requests/${id}/waive`, { session, form: { confirmed: "yes" } });
    expect(confirmed.status).toBe(303);
    expect((await call("GET", `/v1/deals/${ref}/requests`, { key })).body.requests[0].status).toBe("waived");
    expect((await auditOf(session)).map((a) => a.action)).toEqual(["request.waived"]);
    // A waived request has no question any more.
    expect((await portal("GET", `/deals/${ref}/requests/${id}/waive`, { session })).status).toBe(404);
  });

  it("answers 404 to the question on another lender's deal or one of the other environment", async () => {
    const other = await lenderWithKeys();
    const ref = await testDeal(other.sandbox.key);
    const id = (await call("POST", `/v1/deals/${ref}/requests`, { key: other.sandbox.key, body: { item_type: "vat_returns" } })).body.request.id as string;
    const stranger = await signedInMember((await lenderWithKeys()).organisation.id, "member");
    expect((await portal("GET", `/deals/${ref}/requests/${id}/waive`, { session: stranger })).status).toBe(404);
    expect((await portal("POST", `/deals/${ref}/requests/${id}/waive`, { session: stranger, form: { confirmed: "yes" } })).status).toBe(404);
    const owner = await signedInMember(other.organisation.id, "member");
    await portal("POST", "/environment", { session: owner, form: { environment: "live" } });
    expect((await portal("GET", `/deals/${ref}/requests/${id}/waive`, { session: owner })).status).toBe(404);
    expect((await call("GET", `/v1/deals/${ref}/requests`, { key: other.sandbox.key })).body.requests[0].status).toBe("requested");
  });
});
