/** The lender's work queue (deals waiting on the lender, with the count in the nav) and the confirmation before waiving a request. */
import { describe, expect, it } from "vitest";
import { call } from "../../helpers/api";
import { portal, signedInMember } from "../../helpers/portal";
import { lenderWithKeys, partnerWithKeys } from "../../helpers/seed";
import { firmOffer, makeOffer, pdfBytes } from "../../lender/helpers";
import { auditOf } from "./support";

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
