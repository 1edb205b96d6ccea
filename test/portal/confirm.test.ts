import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { portal, signedInMember } from "../helpers/portal";
import { createOrganisation, partnerWithKeys } from "../helpers/seed";
import { twoLenderPanel } from "../routing/helpers";
import { auditOf, completeUkForm, eventNamesOf, openAndSubmit } from "./partner/helpers";
import { shownSecret } from "./integration/support";
import { receiverBucket } from "../webhooks/support/webhooks";

const formActionsOf = (html: string) => [...html.matchAll(/<form method="post" action="([^"]+)"/g)].map((m) => m[1]);

describe("one confirmation pattern for what cannot be undone (issue 23 item 7)", () => {
  it("accepting an offer on the client's behalf goes through a review page that shows every term; the lead page itself posts nothing", async () => {
    await twoLenderPanel();
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const { id } = await openAndSubmit(session);
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
    // Issue 45 item 11: the fees are among the terms reviewed.
    expect(review.text).toMatch(/>Fees<\/[a-z]+>\s*<[a-z]+[^>]*>£/);
    // Issue 45 item 10: the hub link's confirm page names the business and the reference, never the raw id.
    const hubConfirm = await portal("GET", `/leads/${id}/hub-link`, { session });
    const main = hubConfirm.text.slice(hubConfirm.text.indexOf("<main"));
    expect(main.replace(/<[^>]+>/g, " ")).not.toContain(id);
    expect(main).toContain("Widgets Ltd");
    expect(main).toMatch(/RF-[A-Z0-9]+/);
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

  // The kit's date form: `26 Nov 2026, 03:57 UTC`, never a sliced ISO string.
  const KIT_TIME = /<dd>\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC<\/dd>/;
  const confirmedForm = (html: string, action: string) =>
    html.includes(`<form method="post" action="${action}">`) && html.includes('<input type="hidden" name="confirmed" value="yes"/>');

  it("removing a member asks first: the list links to the question, a post without confirmed=yes is sent to it, another organisation's member is 404", async () => {
    const org = await createOrganisation("partner");
    const boss = await signedInMember(org.id, "admin");
    const leaver = await signedInMember(org.id, "member", `leaver-${crypto.randomUUID()}@example.test`);
    const path = `/members/${leaver.memberId}/remove`;
    const list = await portal("GET", "/members", { session: boss });
    expect(formActionsOf(list.text)).not.toContain(`/portal${path}`);
    expect(list.text).toContain(`<a class="button danger" href="/portal${path}"`);

    const question = await portal("GET", path, { session: boss });
    expect(question.status).toBe(200);
    expect(question.text).toContain(`Remove ${leaver.email}?`);
    for (const fact of [leaver.email, "<dd>Member</dd>", "This cannot be undone.", "What happens next:", 'href="/portal/members"']) expect(question.text).toContain(fact);
    expect(question.text).toMatch(KIT_TIME);
    expect(confirmedForm(question.text, `/portal${path}`)).toBe(true);

    const unasked = await portal("POST", path, { session: boss, form: {} });
    expect(unasked.status).toBe(303);
    expect(unasked.location).toBe(`/portal${path}`);
    expect((await portal("GET", "/", { session: leaver })).status).toBe(200);
    expect((await auditOf(org.id)).filter((a) => a.action === "member.removed")).toEqual([]);

    const other = await createOrganisation("partner");
    const outsider = await signedInMember(other.id, "member");
    expect((await portal("GET", `/members/${outsider.memberId}/remove`, { session: boss })).status).toBe(404);
    expect((await portal("POST", `/members/${outsider.memberId}/remove`, { session: boss, form: { confirmed: "yes" } })).status).toBe(404);
    expect((await portal("GET", "/", { session: outsider })).status).toBe(200);

    const removed = await portal("POST", path, { session: boss, form: { confirmed: "yes" } });
    expect(removed.status).toBe(303);
    expect(removed.location).toBe("/portal/members");
    expect((await portal("GET", "/", { session: leaver })).status).toBe(303);
    expect((await portal("GET", path, { session: boss })).status).toBe(404);
  });

  it("revoking a key asks first, showing the client id, type, environment and creation time; unconfirmed posts revoke nothing", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);
    const key = shownSecret((await portal("POST", "/keys", { session, form: { type: "secret" } })).text)!;
    const clientId = key.slice(0, key.lastIndexOf("_"));
    const path = `/keys/${clientId}/revoke`;
    const list = await portal("GET", "/keys", { session });
    expect(formActionsOf(list.text)).not.toContain(`/portal${path}`);
    expect(list.text).toContain(`<a class="button danger" href="/portal${path}"`);

    const question = await portal("GET", path, { session });
    expect(question.status).toBe(200);
    expect(question.text).toContain(`Revoke ${clientId}?`);
    for (const fact of [`<dd>${clientId}</dd>`, "<dd>Partner secret</dd>", "<dd>sandbox</dd>", "This cannot be undone.", "What happens next:", 'href="/portal/keys"']) expect(question.text).toContain(fact);
    expect(question.text).toMatch(KIT_TIME);
    expect(confirmedForm(question.text, `/portal${path}`)).toBe(true);

    const unasked = await portal("POST", path, { session, form: {} });
    expect(unasked.status).toBe(303);
    expect(unasked.location).toBe(`/portal${path}`);
    expect((await auditOf(org.id)).map((a) => a.action)).toEqual(["key.created"]);

    const stranger = await signedInMember((await createOrganisation("partner")).id);
    expect((await portal("GET", path, { session: stranger })).status).toBe(404);
    expect((await portal("POST", path, { session: stranger, form: { confirmed: "yes" } })).status).toBe(404);

    const revoked = await portal("POST", path, { session, form: { confirmed: "yes" } });
    expect(revoked.status).toBe(303);
    expect(revoked.location).toBe("/portal/keys");
    expect((await auditOf(org.id)).map((a) => a.action)).toEqual(["key.created", "key.revoked"]);
    // Once revoked there is nothing left to confirm.
    expect((await portal("GET", path, { session })).status).toBe(404);
  });

  it("deleting a webhook endpoint asks first, showing its URL and events; unconfirmed posts delete nothing", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);
    const url = receiverBucket().url();
    const created = await portal("POST", "/webhooks", { session, form: { url, events: ["lead.funded", "lead.submitted"], payload: "reference" } });
    expect(created.status).toBe(201);
    const id = /href="\/portal\/webhooks\/(whe_[a-z0-9]+)"/.exec(created.text)![1];
    const path = `/webhooks/${id}/delete`;
    const page = await portal("GET", `/webhooks/${id}`, { session });
    expect(formActionsOf(page.text)).not.toContain(`/portal${path}`);
    expect(page.text).toContain(`<a class="button danger" href="/portal${path}"`);

    const question = await portal("GET", path, { session });
    expect(question.status).toBe(200);
    expect(question.text).toContain("Delete the endpoint");
    for (const fact of [url.replaceAll("&", "&amp;"), "lead.funded", "lead.submitted", "This cannot be undone.", "What happens next:", `href="/portal/webhooks/${id}"`]) expect(question.text).toContain(fact);
    expect(confirmedForm(question.text, `/portal${path}`)).toBe(true);

    const unasked = await portal("POST", path, { session, form: {} });
    expect(unasked.status).toBe(303);
    expect(unasked.location).toBe(`/portal${path}`);
    expect((await portal("GET", `/webhooks/${id}`, { session })).status).toBe(200);

    const stranger = await signedInMember((await createOrganisation("partner")).id);
    expect((await portal("GET", path, { session: stranger })).status).toBe(404);
    expect((await portal("POST", path, { session: stranger, form: { confirmed: "yes" } })).status).toBe(404);

    const deleted = await portal("POST", path, { session, form: { confirmed: "yes" } });
    expect(deleted.status).toBe(303);
    expect(deleted.location).toBe("/portal/webhooks");
    expect((await portal("GET", `/webhooks/${id}`, { session })).status).toBe(404);
    expect((await auditOf(org.id)).map((a) => a.action)).toEqual(["webhook.registered", "webhook.deleted"]);
  });

  it("the passkey removal page shows when it was added in the kit's date form", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);
    const credentialId = `cred-${crypto.randomUUID()}`;
    await env.DB.prepare("insert into portal_passkeys (credential_id, member_id, public_key, counter, created_at) values (?, ?, ?, 0, ?)")
      .bind(credentialId, session.memberId, "AAAA", "2026-01-02T03:04:05.000Z")
      .run();
    const question = await portal("GET", `/passkeys/${credentialId}/remove`, { session });
    expect(question.status).toBe(200);
    expect(question.text).toContain("<dd>2 Jan 2026, 03:04 UTC</dd>");
  });
});
