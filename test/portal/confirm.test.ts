import { describe, expect, it } from "vitest";
import { portal, signedInMember } from "../helpers/portal";
import { createOrganisation, partnerWithKeys } from "../helpers/seed";
import { twoLenderPanel } from "../routing/helpers";
import { auditOf, completeUkForm, eventNamesOf } from "./partner-helpers";

const leadIdOf = (location: string | null) => location!.match(/^\/portal\/leads\/([0-9a-f-]{36})$/)![1];
const formActionsOf = (html: string) => [...html.matchAll(/<form method="post" action="([^"]+)"/g)].map((m) => m[1]);

describe("one confirmation pattern for what cannot be undone (issue 23 item 7)", () => {
  it("accepting an offer on the client's behalf goes through a review page that shows every term; the lead page itself posts nothing", async () => {
    await twoLenderPanel();
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const created = await portal("POST", "/leads/new", { session, form: { ...completeUkForm(), intent: "submit" } });
    const id = leadIdOf(created.location);
    const detail = await portal("GET", `/leads/${id}`, { session });
    expect(formActionsOf(detail.text).filter((a) => a.endsWith("/accept"))).toEqual([]);
    const reviews = [...detail.text.matchAll(/<a class="button" href="(\/portal\/leads\/[^"]+\/offers\/([^"]+)\/accept)">Review and accept/g)];
    expect(reviews).toHaveLength(2);
    const [, href, offerId] = reviews[0];

    // Following the link changes nothing: no event, no audit entry.
    const review = await portal("GET", href.replace("/portal", ""), { session });
    expect(review.status).toBe(200);
    expect(review.text).toContain("<title>Review the offer for Widgets Ltd · ");
    expect(review.text).toMatch(/<h2 id="confirm-question" tabindex="-1">Accept .+ on Widgets Ltd&#39;s behalf\?<\/h2>/);
    for (const term of ["Amount", "Total to repay", "Expires", "This cannot be undone.", "What happens next:"]) expect(review.text).toContain(term);
    expect(review.text).toContain(`href="/portal/leads/${id}#offers"`);
    expect(formActionsOf(review.text)).toContain(href);
    expect((await eventNamesOf(id)).at(-1)).toBe("lead.offers_available");
    expect((await auditOf(organisation.id)).filter((a) => a.action === "offer.accepted")).toEqual([]);

    // Another organisation's member gets the same 404 as for an unknown page, on the review as on the post.
    const other = await partnerWithKeys();
    const stranger = await signedInMember(other.organisation.id, "member");
    expect((await portal("GET", href.replace("/portal", ""), { session: stranger })).status).toBe(404);
    expect((await portal("GET", `/leads/${id}/offers/${crypto.randomUUID()}/accept`, { session })).status).toBe(404);

    const accepted = await portal("POST", href.replace("/portal", ""), { session, form: {} });
    expect(accepted.status).toBe(303);
    expect((await eventNamesOf(id)).at(-1)).toBe("lead.offer_accepted");
    expect((await auditOf(organisation.id)).filter((a) => a.action === "offer.accepted").map((a) => a.target)).toEqual([offerId]);
    // Once accepted, the review step of the same offer no longer offers to accept: back to the offers.
    const again = await portal("GET", href.replace("/portal", ""), { session });
    expect(again.status).toBe(303);
    expect(again.location).toBe(`/portal/leads/${id}`);
  });

  it("switching to live is confirmed on its own page; switching back to sandbox is immediate", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);
    const home = await portal("GET", "/", { session });
    expect(home.text).toContain('<a class="button" href="/portal/environment/live">Switch to live</a>');
    expect(formActionsOf(home.text)).not.toContain("/portal/environment");

    const confirm = await portal("GET", "/environment/live", { session });
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain("real clients");
    expect(confirm.text).toContain('<input type="hidden" name="environment" value="live"/>');
    expect(confirm.text).toContain(">Stay in sandbox</a>");
    expect((await portal("GET", "/", { session })).text).toContain("sandbox environment");
    expect(await auditOf(org.id)).toEqual([]);

    const switched = await portal("POST", "/environment", { session, form: { environment: "live" } });
    expect(switched.status).toBe(303);
    const live = await portal("GET", "/", { session });
    expect(live.text).toContain("live environment");
    expect(formActionsOf(live.text)).toContain("/portal/environment");
    expect((await portal("GET", "/environment/live", { session })).status).toBe(303);
  });
});
