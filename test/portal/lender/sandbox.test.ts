/** The lender sandbox in the portal: test deals made, listed and deleted, and the business simulated, through the test-deal services. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../../helpers/api";
import { portal, signedInMember } from "../../helpers/portal";
import { lenderWithKeys, partnerWithKeys } from "../../helpers/seed";
import { firmOffer, makeOffer, pdfBytes } from "../../lender/helpers";
import { eventsFor } from "../../routing/helpers";
import { auditOf, postAgreement } from "./support";
import { inData } from "../../helpers/data-db";

/** The lender's own events, oldest first. */
async function lenderEvents(organisationId: string) {
  const { results } = await inData.prepare("select event from events where organisation_id = ? and api = 'lender' order by created_at, rowid").bind(organisationId).all<{ event: string }>();
  return results.map((r) => r.event);
}

const listedTestDeals = (html: string) => [...html.matchAll(/<li data-test-deal="([^"]+)"/g)].map((m) => m[1]);

async function sandboxLender() {
  const lender = await lenderWithKeys();
  const session = await signedInMember(lender.organisation.id, "member");
  return { lender, session };
}

async function createViaPortal(session: Awaited<ReturnType<typeof signedInMember>>, form: Record<string, string> = {}) {
  const res = await portal("POST", "/sandbox/deals", { session, form });
  if (res.status !== 303) throw new Error(`create: ${res.status} ${res.text.slice(0, 400)}`);
  return res.location!.replace("/portal/deals/", "");
}

describe("lender sandbox page", () => {
  it("says how to start when there is no test deal, then creates one with the API's service (deal.created, test: true), audited", async () => {
    const { lender, session } = await sandboxLender();
    const empty = await portal("GET", "/sandbox", { session });
    expect(empty.status).toBe(200);
    expect(empty.text).toContain("How to start");
    expect(empty.text).toContain("You have no test deals yet.");
    expect(listedTestDeals(empty.text)).toEqual([]);

    const ref = await createViaPortal(session, { country: "GB", amount: "75,000" });
    expect(ref).toMatch(/^DL-/);
    const api = await call("GET", `/v1/deals/${ref}`, { key: lender.sandbox.key });
    expect(api.status).toBe(200);
    expect(api.body).toMatchObject({ ref, test: true, environment: "sandbox", lender_status: "new", request: { amount: 75_000, currency: "GBP" } });
    expect((await eventsFor(ref)).map((e) => e.event)).toEqual(["deal.created"]);
    expect(await auditOf(session)).toEqual([{ action: "test_deal.created", target: ref, environment: "sandbox" }]);

    const listed = await portal("GET", "/sandbox", { session });
    expect(listedTestDeals(listed.text)).toEqual([ref]);
    expect(listed.text).not.toContain("How to start");
    expect(listed.text).toContain("Your test deals (1 of 10)");
    // A test deal made with the API is the same list.
    const byApi = (await call("POST", "/v1/test/deals", { key: lender.sandbox.key, body: {} })).body.ref as string;
    expect(listedTestDeals((await portal("GET", "/sandbox", { session })).text).sort()).toEqual([ref, byApi].sort());
  });

  it("refuses a bad market or amount beside the field with 400, writing nothing", async () => {
    const { lender, session } = await sandboxLender();
    const badAmount = await portal("POST", "/sandbox/deals", { session, form: { country: "GB", amount: "lots" } });
    expect(badAmount.status).toBe(400);
    expect(badAmount.text).toMatch(/<span class="field-error" id="amount-error" role="alert">Enter the amount as a number/);
    expect(badAmount.text).toContain('value="lots"');
    const badCountry = await portal("POST", "/sandbox/deals", { session, form: { country: "XX" } });
    expect(badCountry.status).toBe(400);
    expect(badCountry.text).toContain('id="country-error"');
    const { results } = await inData.prepare("select ref from deals where lender_organisation_id = ?").bind(lender.organisation.id).all();
    expect(results).toEqual([]);
  });

  it("holds the cap of 10: the form gives way to a message, an 11th post is 422 and writes nothing; deleting makes room", async () => {
    const { lender, session } = await sandboxLender();
    const refs: string[] = [];
    for (let i = 0; i < 10; i++) refs.push((await call("POST", "/v1/test/deals", { key: lender.sandbox.key, body: {} })).body.ref);
    const full = await portal("GET", "/sandbox", { session });
    expect(full.text).toContain('id="cap-reached"');
    expect(full.text).not.toContain(`action="/portal/sandbox/deals"`);
    const eleventh = await portal("POST", "/sandbox/deals", { session, form: { country: "GB" } });
    expect(eleventh.status).toBe(422);
    expect(eleventh.text).toContain("You already have 10 test deals");
    expect(listedTestDeals(eleventh.text)).toHaveLength(10);

    // Deleting asks first: the button opens the question; a post without its answer deletes nothing.
    expect(full.text).toContain(`<form method="get" action="/portal/sandbox/deals/${refs[0]}/delete">`);
    const question = await portal("GET", `/sandbox/deals/${refs[0]}/delete`, { session });
    expect(question.status).toBe(200);
    expect(question.text).toContain("Delete this test deal?");
    expect(question.text).toContain('name="confirmed" value="yes"');
    const unconfirmed = await portal("POST", `/sandbox/deals/${refs[0]}/delete`, { session, form: {} });
    expect(unconfirmed.status).toBe(303);
    expect(unconfirmed.location).toBe(`/portal/sandbox/deals/${refs[0]}/delete`);
    expect((await call("GET", `/v1/deals/${refs[0]}`, { key: lender.sandbox.key })).status).toBe(200);

    const deleted = await portal("POST", `/sandbox/deals/${refs[0].toLowerCase()}/delete`, { session, form: { confirmed: "yes" } });
    expect(deleted.status).toBe(303);
    expect(deleted.location).toBe("/portal/sandbox");
    expect((await call("GET", `/v1/deals/${refs[0]}`, { key: lender.sandbox.key })).status).toBe(404);
    const after = await portal("GET", "/sandbox?notice=deleted", { session });
    expect(after.text).toContain("The test deal was deleted.");
    expect(listedTestDeals(after.text)).toHaveLength(9);
    expect((await auditOf(session)).map((a) => a.action)).toEqual(["test_deal.deleted"]);
  });

  it("answers 404 to deleting or simulating another lender's test deal, one of the other environment, or a real deal; and to a partner's member", async () => {
    const { session } = await sandboxLender();
    const other = await lenderWithKeys();
    const theirs = (await call("POST", "/v1/test/deals", { key: other.sandbox.key, body: {} })).body.ref as string;
    expect((await portal("POST", `/sandbox/deals/${theirs}/delete`, { session, form: { confirmed: "yes" } })).status).toBe(404);
    expect((await portal("GET", `/sandbox/deals/${theirs}/delete`, { session })).status).toBe(404);
    expect((await portal("POST", `/deals/${theirs}/simulate`, { session, form: { event: "message.created" } })).status).toBe(404);
    expect((await call("GET", `/v1/deals/${theirs}`, { key: other.sandbox.key })).status).toBe(200);

    // The member's own test deal, looked at from live: not there.
    const mine = await createViaPortal(session);
    await portal("POST", "/environment", { session, form: { environment: "live" } });
    expect((await portal("POST", `/sandbox/deals/${mine}/delete`, { session, form: { confirmed: "yes" } })).status).toBe(404);
    expect((await portal("POST", `/deals/${mine}/simulate`, { session, form: { event: "message.created" } })).status).toBe(404);

    const partner = await partnerWithKeys();
    const partnerMember = await signedInMember(partner.organisation.id, "admin");
    expect((await portal("GET", "/sandbox", { session: partnerMember })).status).toBe(404);
    expect((await portal("POST", "/sandbox/deals", { session: partnerMember, form: {} })).status).toBe(404);
    expect((await eventsFor(theirs)).map((e) => e.event)).toEqual(["deal.created"]);
  });

  it("rehearses a whole deal: offer, the business accepts, replies, uploads, gives its account and signs, then funded, with the API's events", async () => {
    const { lender, session } = await sandboxLender();
    const ref = await createViaPortal(session);
    const created = await portal("GET", `/deals/${ref}?notice=test_deal_created`, { session });
    expect(created.text).toContain('id="simulate"');
    expect(created.text).toContain('data-stage="new"');
    const simulate = (event: string) => portal("POST", `/deals/${ref}/simulate`, { session, form: { event } });

    // Before an offer the business cannot accept one: said in the portal's words beside the buttons, 409 as the API, nothing written.
    const early = await simulate("offer.accepted");
    expect(early.status).toBe(409);
    expect(early.text).toContain('id="simulate-form-error"');
    expect(early.text).toContain("There is no current offer for the business to accept");
    expect(early.text).not.toContain("/v1/");

    await makeOffer(lender.sandbox.key, ref, firmOffer());
    await call("POST", `/v1/deals/${ref}/requests`, { key: lender.sandbox.key, body: { item_type: "vat_returns" } });
    for (const event of ["message.created", "request.fulfilled", "offer.accepted", "deal.account_submitted"]) {
      const res = await simulate(event);
      expect(res.status, event).toBe(303);
      expect(res.location).toBe(`/portal/deals/${ref}`);
    }
    const accepted = await portal("GET", `/deals/${ref}?notice=simulated_deal.account_submitted`, { session });
    expect(accepted.text).toContain("The business gave its payout account");
    expect(accepted.text).toContain('data-stage="account_given"');
    expect(accepted.text).toMatch(/data-completion="account"><bdi>[^<]*••••5678<\/bdi> \(masked\)/);

    expect((await postAgreement(session, ref, { bytes: pdfBytes(), type: "application/pdf", name: "agreement.pdf" })).status).toBe(303);
    expect((await simulate("deal.agreement_signed")).status).toBe(303);
    const signed = await portal("GET", `/deals/${ref}`, { session });
    expect(signed.text).toContain('data-stage="signed"');
    // The signature check in words, never the stored `typed_name:<hash>` (issue 45 item 10).
    expect(signed.text).toContain('<td data-completion="signature">Name typed and consent given, bound to the agreement file that was signed</td>');
    expect(signed.text).not.toContain("typed_name");
    expect((await simulate("nonsense")).status).toBe(400);

    // Funded is confirmed on its own page, with the day paid out.
    const funded = await portal("POST", `/deals/${ref}/funded`, { session, form: { confirmed: "yes", funded_amount: "40000", funded_on: new Date().toISOString().slice(0, 10) } });
    expect(funded.status).toBe(303);
    const done = await portal("GET", `/deals/${ref}`, { session });
    // The outcome, and no forms that would only be refused now.
    expect(done.text).toContain('data-outcome="funded"');
    expect(done.text).not.toContain('id="simulate"');
    expect(done.text).not.toContain(`action="/portal/deals/${ref}/offers"`);
    expect(done.text).not.toContain(`action="/portal/deals/${ref}/status"`);
    expect(done.text).not.toContain(`action="/portal/deals/${ref}/agreement"`);
    expect(done.text).not.toContain(`action="/portal/deals/${ref}/requests"`);

    const events = await lenderEvents(lender.organisation.id);
    for (const e of ["deal.created", "message.created", "request.fulfilled", "offer.accepted", "deal.account_submitted", "deal.agreement_signed"]) expect(events, e).toContain(e);
    expect((await auditOf(session)).map((a) => a.action)).toEqual([
      "test_deal.created",
      "test_deal.simulated",
      "test_deal.simulated",
      "test_deal.simulated",
      "test_deal.simulated",
      "agreement.uploaded",
      "test_deal.simulated",
      "deal.status_reported",
    ]);
  });
});
