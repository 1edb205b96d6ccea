/** Offers complete on both sides: the lender's deal page and the partner's lead page show fees, total to repay and expiry as the hub does. */
import { describe, expect, it } from "vitest";
import { portal, signedInMember } from "../../helpers/portal";
import { firmOffer, makeOffer, routedLead } from "../../lender/helpers";
import { liveSession } from "./support";
import { switchTo } from "../partner/helpers";

describe("offers complete", () => {
  it("shows the lender its offer's fees, total to repay, expiry and notes, and the partner the same terms without the lender's notes", async () => {
    const { keys, refA, partner, lead, a } = await routedLead();
    const offer = await makeOffer(keys.a.live, refA, firmOffer({ fees: 1_250.5, total_repayment: 45_900, notes: "Pending the March statement" }));
    const lenderPage = await portal("GET", `/deals/${refA}`, { session: await liveSession(a.id) });
    const card = lenderPage.text.match(new RegExp(`<tr data-offer="${offer.id}">([\\s\\S]*?)</tr>`))![1];
    expect(card).toContain('<td data-label="Fees">£1,250.50</td>');
    expect(card).toContain('<td data-label="Total to repay">£45,900</td>');
    expect(card).toMatch(/<td data-label="Expires">\d{1,2} \w{3} \d{4}/);
    expect(card).toContain('<td data-label="Your notes"><bdi>Pending the March statement</bdi></td>');

    const session = await signedInMember(partner.organisation.id, "member");
    await switchTo(session, "live");
    const partnerPage = await portal("GET", `/leads/${lead.id}`, { session });
    expect(partnerPage.text).toContain('<td data-label="Fees">£1,250.50</td>');
    expect(partnerPage.text).toContain('<td data-label="Total to repay">£45,900</td>');
    expect(partnerPage.text).toMatch(/<td data-label="Expires">\d{1,2} \w{3} \d{4}/);
    // The partner's view of an offer never carries the lender's notes (the API's partner offer view has none).
    expect(partnerPage.text).not.toContain("Pending the March statement");
  });

  it("answers 404 to the lender's deal page for another lender's member", async () => {
    const { keys, refA, b } = await routedLead();
    await makeOffer(keys.a.live, refA, firmOffer());
    expect((await portal("GET", `/deals/${refA}`, { session: await liveSession(b.id) })).status).toBe(404);
  });
});
