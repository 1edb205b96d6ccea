import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { call, ownAddress, PRODUCTION, throughEdge } from "../helpers/api";
import { firmOffer, indicativeOffer, makeOffer, pdfBytes } from "../lender/helpers";
import { receiverBucket, register, settleOutbox } from "../webhooks/support/webhooks";
import { hubCall, hubLead, OUR_ORIGIN, pagesOf, requestDocuments } from "./helpers";

// Events other files of this worker left undispatched must not reach this file's dispatch.
beforeEach(settleOutbox);

// The business accepts an offer in the hub through the partner API's own acceptOffer:
// the same rows change and the same events are written as when the partner accepts it.

const accept = (hub: string, offerId: string, headers?: Record<string, string>) => hubCall("POST", `${hub}/offers/${offerId}/acceptance`, { form: {}, headers });

/** What an acceptance leaves behind on a lead, with ids and times taken out so two leads compare. */
async function afterAcceptance(leadId: string, partnerOrgId: string, lenderOrgIds: string[]) {
  const lead = await env.DB.prepare("select state from leads where id = ?").bind(leadId).first<any>();
  const routing = await env.DB.prepare("select accepted_offer_id from lead_routing where lead_id = ?").bind(leadId).first<any>();
  const { results: offers } = await env.DB.prepare("select id, state, superseded from offers where lead_id = ? order by amount").bind(leadId).all<any>();
  const { results: deals } = await env.DB.prepare("select lender_organisation_id, status from deals where lead_id = ? order by lender_organisation_id").bind(leadId).all<any>();
  const events = async (orgId: string, api: string) =>
    (await env.DB.prepare("select event, detail from events where organisation_id = ? and api = ? order by created_at, rowid").bind(orgId, api).all<any>()).results.map((e) => {
      const detail = JSON.parse(e.detail);
      if (detail.offer) detail.offer = { ...detail.offer, id: "<offer>", created_at: "<at>", expires_at: "<at>" };
      if (detail.reference) detail.reference = "<reference>";
      return { event: e.event, detail };
    });
  return {
    lead_state: lead.state,
    accepted_offer: offers.findIndex((o) => o.id === routing?.accepted_offer_id),
    offers: offers.map((o) => [o.state, o.superseded]),
    deals: deals.map((d) => [lenderOrgIds.indexOf(d.lender_organisation_id), d.status]).sort(),
    partner_events: await events(partnerOrgId, "partner"),
    lender_events: await Promise.all(lenderOrgIds.map((id) => events(id, "lender"))),
  };
}

/** A routed live lead with a firm offer from each of its two lenders (A's is 40 000, B's 30 000). */
async function leadWithOffers() {
  const routed = await hubLead();
  const offerA = await makeOffer(routed.keys.a.live, routed.refA, firmOffer());
  const offerB = await makeOffer(routed.keys.b.live, routed.refB, firmOffer({ amount: 30_000, total_repayment: 34_000 }));
  return { ...routed, offerA, offerB };
}

const declineInHub = (hub: string, offerId: string, form: Record<string, string>) => hubCall("POST", `${hub}/offers/${offerId}/decline`, { form });

describe("client hub: the business declines an offer (issue 41)", () => {
  it("declines a presented offer with a reason: the API's events (offer.declined, lead.offer_declined), the offer then refuses acceptance, and every offer declined says so", async () => {
    const { hub, lead, offerA, offerB, partner, refA } = await leadWithOffers();
    const page = await hubCall("GET", `${hub}/offers/${offerA.id}`);
    expect(page.text).toContain(`action="${pagesOf(hub)}/offers/${offerA.id}/decline"`);
    expect(page.text).toContain('name="reason_code" value="found_elsewhere"');

    const none = await declineInHub(hub, offerA.id, {});
    expect(none.status).toBe(400);
    expect(none.text).toContain('<li data-field="reason_code"><a href="#reason_code">Choose why you are declining the offer.</a></li>');
    expect(none.text).toContain('<span class="field-error" id="reason_code-error">Choose why you are declining the offer.</span>');
    const unknown = await declineInHub(hub, offerA.id, { reason_code: "too_dear" });
    expect(unknown.status).toBe(422);

    const res = await declineInHub(hub, offerA.id, { reason_code: "terms_not_suitable" });
    expect(res.status).toBe(303);
    const after = await hubCall("GET", `${hub}/offers/${offerA.id}?done=declined`);
    expect(after.text).toContain("You declined the offer.");
    expect(after.text).not.toContain(`/offers/${offerA.id}/acceptance"`);
    const events = async (event: string) => (await env.DB.prepare("select detail from events where event = ? and subject_id in (?, ?)").bind(event, lead.id, refA).all<any>()).results.map((r) => JSON.parse(r.detail));
    expect(await events("offer.declined")).toEqual([expect.objectContaining({ offer: expect.objectContaining({ id: offerA.id, status: "declined", declined: expect.objectContaining({ reason_code: "terms_not_suitable" }) }) })]);
    expect((await events("lead.offer_declined")).map((d) => [d.offer.id, d.all_offers_declined])).toEqual([[offerA.id, false]]);
    expect((await accept(hub, offerA.id)).status).toBe(409);
    expect((await call("POST", `/partner/v1/leads/${lead.id}/offers/${offerA.id}/acceptance`, { key: partner.live.key })).status).toBe(409);
    const again = await declineInHub(hub, offerA.id, { reason_code: "other" });
    expect(again.status).toBe(409);
    expect(again.text).toContain("You have already declined this offer.");

    expect((await declineInHub(hub, offerB.id, { reason_code: "no_longer_needed" })).status).toBe(303);
    const read = await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key });
    expect(read.body.all_offers_declined).toBe(true);
    const overview = await hubCall("GET", hub);
    expect(overview.text).toContain("Declined by you");
    // The overview says so in words, and puts no offer on the to-do list (issue 41 item 5).
    expect(overview.text).toContain('<p id="all-declined" class="notice">You declined every offer on your application.');
    expect(overview.text).not.toContain('data-to-do="review_offer"');
    // Its status line agrees: not "Offers available" with none left to take.
    expect(overview.text).toMatch(/status <strong>Every offer declined by you<\/strong>/);
    expect(overview.text).not.toContain("<strong>Offers available</strong>");
    // A deal whose every offer the business declined leads to no completion (account, signature) it can no longer reach.
    expect(overview.text).toContain(`${pagesOf(hub)}/deals/${refA}/messages`);
    expect(overview.text).not.toContain(`${pagesOf(hub)}/deals/${refA}/completion`);
  });
});

describe("client hub: who, what and what next (issue 45 item 9)", () => {
  it("names the adviser, puts a To do card first (review, upload, reply), and hides the other deals once an offer is accepted", async () => {
    const { hub, lead, offerA, offerB, partner, refA, refB, a, keys } = await leadWithOffers();
    const request = await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id });
    await call("POST", `/v1/deals/${refB}/messages`, { key: keys.b.live, body: { body: "Can you confirm the trading address?" } });
    const page = await hubCall("GET", hub);
    expect(page.text).toContain(`Your adviser: <strong><bdi>${partner.organisation.name}</bdi></strong>`);
    const toDo = page.text.slice(page.text.indexOf('id="to-do"'), page.text.indexOf("</section>", page.text.indexOf('id="to-do"')));
    expect(page.text.indexOf('id="to-do"')).toBeLessThan(page.text.indexOf("<h2>Your offers</h2>"));
    expect([...toDo.matchAll(/data-to-do="(\w+)"><a href="([^"]+)"/g)].map((m) => [m[1], m[2]])).toEqual([
      ["upload", `${pagesOf(hub)}/requests/${request.id}`],
      ["reply", `${pagesOf(hub)}/deals/${refB}/messages`],
      ["review_offer", `${pagesOf(hub)}/offers/${offerA.id}`],
      ["review_offer", `${pagesOf(hub)}/offers/${offerB.id}`],
    ]);
    expect(toDo).toContain("Upload: Bank statements (last 6 months)");
    // Answered: the reply leaves the list.
    expect((await hubCall("POST", `${hub}/deals/${refB}/messages`, { form: { body: "12 Bread Street" } })).status).toBe(303);
    expect((await hubCall("GET", hub)).text).not.toContain('data-to-do="reply"');

    expect((await accept(hub, offerA.id)).status).toBe(303);
    const accepted = await hubCall("GET", hub);
    // Only the accepted deal and its offer remain; the other provider's deal is said to be closed, not listed.
    expect(accepted.text).toContain(refA);
    expect(accepted.text).not.toContain(refB);
    expect(accepted.text).not.toContain(`/offers/${offerB.id}`);
    expect(accepted.text).toContain('id="other-deals-closed"');
    expect(accepted.text).toContain(`data-to-do="give_account"><a href="${pagesOf(hub)}/deals/${refA}/completion"`);
    expect(accepted.text).not.toContain('data-to-do="review_offer"');

    // The agreement is not promised by a notification nobody sends: the page says where it will appear.
    const completion = await hubCall("GET", `${hub}/deals/${refA}/completion`);
    expect(completion.text).not.toContain("you will be notified");
    expect(completion.text).toContain("it appears on this page and under Notifications");
    expect((await hubCall("POST", `${hub}/deals/${refA}/completion/account`, { form: { account_holder_name: "Widgets Ltd", sort_code: "12-34-56", account_number: "31926819" } })).status).toBe(303);
    expect((await call("PUT", `/v1/deals/${refA}/agreement`, { key: keys.a.live, rawBody: pdfBytes(), contentType: "application/pdf" })).status).toBe(200);
    const toSign = await hubCall("GET", hub);
    expect(toSign.text).toContain(`data-to-do="sign"><a href="${pagesOf(hub)}/deals/${refA}/completion">Sign the agreement for `);
    expect(toSign.text).not.toContain('data-to-do="give_account"');
  });

  it("says there is nothing to do in words, and shows no card on a closed application", async () => {
    const { hub, lead, partner } = await hubLead();
    const page = await hubCall("GET", hub);
    expect(page.text).toContain("Nothing for you to do right now.");
    expect(page.text).not.toContain("you will be told");
    await env.DB.prepare("update leads set state = 'declined' where id = ?").bind(lead.id).run();
    const closed = await hubCall("GET", hub);
    expect(closed.text).not.toContain('id="to-do"');
    expect(partner.organisation.name).toBeTruthy();
  });
});

describe("client hub: offers", () => {
  it("shows the lead's offers under their structural label with amount, cost, term and expiry in the business's zone, never the lender", async () => {
    const { hub, offerA } = await leadWithOffers();
    const res = await hubCall("GET", hub);
    expect(res.status).toBe(200);
    const label = (await env.DB.prepare("select label from offers where id = ?").bind(offerA.id).first<any>()).label;
    expect(res.text).toContain(`<a href="${pagesOf(hub)}/offers/${offerA.id}">${label}</a>`);
    expect(res.text).toContain("£40,000");
    expect(res.text).toContain("11.5% a year");
    expect(res.text).toContain("24 months");
    expect(res.text).toContain("£45,900");
    // A GB business reads Europe/London time, with the zone named.
    expect(res.text).toMatch(/<dt>Expires<\/dt><dd>\d{1,2} \w{3} \d{4}, \d{2}:\d{2} (GMT|BST)<\/dd>/);
    expect(res.text).toContain("Europe/London time");
    expect(res.text).not.toMatch(/Lender [AB]/);
    expect(res.text).not.toContain("UTC");
  });

  it("accepts through the partner API's path: the same lead, offer and deal changes and the same events as a partner acceptance", async () => {
    const viaHub = await leadWithOffers();
    const viaApi = await leadWithOffers();

    const page = await hubCall("GET", `${viaHub.hub}/offers/${viaHub.offerA.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<form method="post" action="${pagesOf(viaHub.hub)}/offers/${viaHub.offerA.id}/acceptance">`);
    const res = await accept(viaHub.hub, viaHub.offerA.id);
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`${viaHub.hub}/offers/${viaHub.offerA.id}?done=accepted`);
    const confirmation = await hubCall("GET", res.headers.get("Location")!);
    expect(confirmation.text).toContain("You accepted the offer.");
    expect(confirmation.text).toContain(`${pagesOf(viaHub.hub)}/deals/${viaHub.refA}/completion`);
    expect(confirmation.text).not.toContain("<form");

    const api = await call("POST", `/partner/v1/leads/${viaApi.lead.id}/offers/${viaApi.offerA.id}/acceptance`, { key: viaApi.partner.live.key });
    expect(api.status).toBe(200);

    const hubSide = await afterAcceptance(viaHub.lead.id, viaHub.partner.organisation.id, [viaHub.a.id, viaHub.b.id]);
    const apiSide = await afterAcceptance(viaApi.lead.id, viaApi.partner.organisation.id, [viaApi.a.id, viaApi.b.id]);
    expect(hubSide).toEqual(apiSide);
    expect(hubSide).toMatchObject({ lead_state: "offer_accepted", accepted_offer: 1, offers: [["closed", 0], ["accepted", 0]] });
    expect(hubSide.partner_events.filter((e) => e.event === "lead.offer_accepted")).toHaveLength(1);
    expect(hubSide.lender_events[0].filter((e) => e.event === "offer.accepted")).toHaveLength(1);
    expect(hubSide.lender_events[1].filter((e) => e.event === "offer.accepted")).toHaveLength(0);
    // The partner reads the acceptance as it would its own.
    const offers = await call("GET", `/partner/v1/leads/${viaHub.lead.id}/offers`, { key: viaHub.partner.live.key });
    expect(offers.body.offers.find((o: any) => o.id === viaHub.offerA.id).state).toBe("accepted");
  });

  it("delivers the acceptance's webhooks right after the write, as the partner API does", async () => {
    const routed = await leadWithOffers();
    const partnerHooks = receiverBucket();
    const lenderHooks = receiverBucket();
    await register("partner", routed.partner.live.key, { url: partnerHooks.url() });
    await register("lender", routed.keys.a.live, { url: lenderHooks.url() });
    const ctx = createExecutionContext();
    // From an address of its own, as hubCall sends: without one the post counts against the bucket every file shares.
    const address = ownAddress();
    const res = await createApp().request(
      `${PRODUCTION}${routed.hub}/offers/${routed.offerA.id}/acceptance`,
      { method: "POST", headers: { Origin: OUR_ORIGIN, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...address }, body: "", ...throughEdge(address) },
      { ...env, DISPATCH_AFTER_WRITE: "true" },
      ctx,
    );
    expect(res.status).toBe(303);
    await waitOnExecutionContext(ctx);
    const delivered = await env.DB.prepare(
      "select e.event from webhook_deliveries d join events e on e.id = d.event_id where e.event in ('lead.offer_accepted', 'offer.accepted') and e.organisation_id in (?, ?) order by e.event",
    )
      .bind(routed.partner.organisation.id, routed.a.id)
      .all<any>();
    expect(delivered.results.map((r) => r.event)).toEqual(["lead.offer_accepted", "offer.accepted"]);
  });

  it("refuses an expired offer with a plain 409 page and changes nothing", async () => {
    const { hub, lead, offerA, partner } = await leadWithOffers();
    await env.DB.prepare("update offers set expires_at = ? where id = ?").bind(new Date(Date.now() - 60_000).toISOString(), offerA.id).run();
    const page = await hubCall("GET", `${hub}/offers/${offerA.id}`);
    expect(page.text).toContain('data-standing="expired"');
    expect(page.text).not.toContain("<form");
    const res = await accept(hub, offerA.id);
    expect(res.status).toBe(409);
    expect(res.text).toContain('<div class="error" role="alert" id="form-error" data-field="offer"><p class="error-title">There is a problem</p><ul><li data-field="offer">The offer has expired.</li></ul></div>');
    expect((await env.DB.prepare("select state from leads where id = ?").bind(lead.id).first<any>()).state).toBe("offers_available");
    const events = await env.DB.prepare("select count(*) as n from events where organisation_id = ? and event = 'lead.offer_accepted'").bind(partner.organisation.id).first<any>();
    expect(events.n).toBe(0);
  });

  it("tells a second press that the offer is already accepted, and fires nothing twice", async () => {
    const { hub, offerA, partner } = await leadWithOffers();
    expect((await accept(hub, offerA.id)).status).toBe(303);
    const again = await accept(hub, offerA.id);
    expect(again.status).toBe(409);
    expect(again.text).toContain("You have already accepted this offer.");
    const events = await env.DB.prepare("select count(*) as n from events where organisation_id = ? and event = 'lead.offer_accepted'").bind(partner.organisation.id).first<any>();
    expect(events.n).toBe(1);
  });

  it("refuses the other offers once one is accepted, and superseded terms, with the API's own reason", async () => {
    const { hub, offerA, offerB } = await leadWithOffers();
    expect((await accept(hub, offerB.id)).status).toBe(303);
    const other = await accept(hub, offerA.id);
    expect(other.status).toBe(409);
    expect(other.text).toContain("Another offer on this lead was accepted; this one can no longer be.");
    expect((await hubCall("GET", `${hub}/offers/${offerA.id}`)).text).toContain('data-standing="withdrawn"');

    const fresh = await hubLead();
    const indicative = await makeOffer(fresh.keys.a.live, fresh.refA, indicativeOffer());
    await makeOffer(fresh.keys.a.live, fresh.refA, firmOffer());
    const superseded = await accept(fresh.hub, indicative.id);
    expect(superseded.status).toBe(409);
    expect(superseded.text).toContain("The offer was superseded by newer terms.");
  });

  it("two offers accepted at once in the hub: one wins, the other is refused, and one acceptance is written", async () => {
    const { hub, lead, offerA, offerB, partner } = await leadWithOffers();
    const answers = await Promise.all([accept(hub, offerA.id), accept(hub, offerB.id)]);
    expect(answers.map((r) => r.status).sort()).toEqual([303, 409]);
    const routing = await env.DB.prepare("select accepted_offer_id from lead_routing where lead_id = ?").bind(lead.id).first<any>();
    const winner = answers[0].status === 303 ? offerA.id : offerB.id;
    expect(routing.accepted_offer_id).toBe(winner);
    const events = await env.DB.prepare("select count(*) as n from events where organisation_id = ? and event = 'lead.offer_accepted'").bind(partner.organisation.id).first<any>();
    expect(events.n).toBe(1);
  });

  it("answers another lead's offer and an unknown offer with the plain 404 page, and changes nothing", async () => {
    const mine = await hubLead();
    const theirs = await leadWithOffers();
    for (const path of [`${mine.hub}/offers/${theirs.offerA.id}`, `${mine.hub}/offers/off_nope`]) {
      const page = await hubCall("GET", path);
      expect(page.status).toBe(404);
      expect(page.text).toContain("This link is not valid");
    }
    const res = await accept(mine.hub, theirs.offerA.id);
    expect(res.status).toBe(404);
    expect(res.text).toContain("This link is not valid");
    expect((await env.DB.prepare("select state from offers where id = ?").bind(theirs.offerA.id).first<any>()).state).toBe("presented");
  });

  it("refuses an acceptance posted from another site (403) and changes nothing", async () => {
    const { hub, offerA } = await leadWithOffers();
    for (const headers of [{ "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" }, { Origin: "https://evil.example", "Sec-Fetch-Site": "" }, { Origin: "null", "Sec-Fetch-Site": "" }]) {
      const res = await accept(hub, offerA.id, headers);
      expect(res.status).toBe(403);
      expect(res.text).toContain("This form must be sent from the hub page itself.");
    }
    expect((await env.DB.prepare("select state from offers where id = ?").bind(offerA.id).first<any>()).state).toBe("presented");
  });
});
