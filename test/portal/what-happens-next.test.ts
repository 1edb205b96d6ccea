import { describe, expect, it } from "vitest";
import { portal, signedInMember } from "../helpers/portal";
import { partnerWithKeys } from "../helpers/seed";
import { firmOffer, makeOffer } from "../lender/helpers";
import { twoLenderPanel } from "../routing/helpers";
import { hubCall, hubLead } from "../hub/helpers";
import { openAndSubmit } from "./partner/helpers";

// Issue 23 item 15: after a partner submits a lead, and after an offer is accepted (portal and hub),
// the page says in a sentence what happens next and how the person hears of it.

const noticeOf = (html: string) => html.match(/<p class="notice"[^>]*>([\s\S]*?)<\/p>/)?.[1] ?? "";

describe("what happens next", () => {
  it("the partner's lead page after submitting says who acts next and where the offers appear", async () => {
    await twoLenderPanel();
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const { id, submitted } = await openAndSubmit(session);
    expect(submitted.status).toBe(303);
    expect(submitted.location).toBe(`/portal/leads/${id}`);
    const page = await portal("GET", `/leads/${id}?done=submitted`, { session });
    const notice = noticeOf(page.text);
    expect(notice).toContain("The lead was submitted.");
    expect(notice).toContain("What happens next: the lenders on the panel look at it now");
    expect(notice).toContain("offers appear on this page");
  });

  it("the partner's lead page after accepting says what the lender does next", async () => {
    await twoLenderPanel();
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const path = `/leads/${(await openAndSubmit(session)).id}`;
    const detail = await portal("GET", path, { session });
    const [, review] = detail.text.match(/href="\/portal(\/leads\/[^"]+\/offers\/[^"]+\/accept)"/)!;
    const reviewPage = await portal("GET", review, { session });
    expect(reviewPage.text).toContain("What happens next");
    const accepted = await portal("POST", review, { session, form: {} });
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get("Location")).toMatch(/\?done=accepted$/);
    const page = await portal("GET", `${path}?done=accepted`, { session });
    expect(noticeOf(page.text)).toContain("What happens next: the lender is told at once");
  });

  it("the hub's offer page after accepting says what the funding provider does next and where the business hears", async () => {
    const routed = await hubLead();
    const offer = await makeOffer(routed.keys.a.live, routed.refA, firmOffer());
    const res = await hubCall("POST", `${routed.hub}/offers/${offer.id}/acceptance`, { form: {} });
    expect(res.status).toBe(303);
    const page = await hubCall("GET", res.headers.get("Location")!);
    const notice = noticeOf(page.text);
    expect(notice).toContain("You accepted the offer.");
    expect(notice).toContain("What happens next:");
    expect(notice).toContain("appears on this page as soon as it is made");
  });
});
