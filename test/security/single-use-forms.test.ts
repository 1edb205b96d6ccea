/**
 * Issue 21 item 8, "Double posts duplicate": each rendered form's token is single-use for its
 * action. A second post of the same form (a double click) acts no more: it is shown the first
 * post's outcome. The browser half (buttons disable while posting) is in
 * test/browser/item-07-08-portal-forms.browser.test.ts.
 */
import { describe, expect, it } from "vitest";
import { portal, signedInMember } from "../helpers/portal";
import { createOrganisation } from "../helpers/seed";
import { completeUkForm, leadIdsOf } from "../portal/partner/helpers";

const tokenOn = (html: string) => html.match(/name="_form_token" value="([^"]+)"/)![1];

describe("issue 21 item 8: each rendered form acts once", () => {
  it("item 8: two posts of one Save and check your answers form, 200 ms apart, make one lead; the second is shown the first's outcome", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);
    const formToken = tokenOn((await portal("GET", "/leads/new", { session })).text);
    const send = () => portal("POST", "/leads/new", { session, form: { ...completeUkForm(), intent: "check" }, formToken });
    const first = send();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [a, b] = await Promise.all([first, send()]);
    expect(await leadIdsOf(org.id)).toHaveLength(1);
    expect(a.status).toBe(303);
    expect(b.status).toBe(303);
    expect(b.location).toBe(a.location);
  });

  it("item 8: two posts at the same instant make one lead", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);
    const formToken = tokenOn((await portal("GET", "/leads/new", { session })).text);
    const send = () => portal("POST", "/leads/new", { session, form: { ...completeUkForm(), intent: "check" }, formToken });
    const [a, b] = await Promise.all([send(), send()]);
    expect(await leadIdsOf(org.id)).toHaveLength(1);
    expect(b.location).toBe(a.location);
  });

  it("item 8: a refused post (bad input) frees the form, so the corrected form goes through once", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);
    const formToken = tokenOn((await portal("GET", "/leads/new", { session })).text);
    const refused = await portal("POST", "/leads/new", { session, form: { ...completeUkForm(), "contact.email": "not-an-email", intent: "save" }, formToken });
    expect(refused.status).toBe(400);
    const fixed = await portal("POST", "/leads/new", { session, form: { ...completeUkForm(), intent: "save" }, formToken });
    expect(fixed.status).toBe(303);
    const again = await portal("POST", "/leads/new", { session, form: { ...completeUkForm(), intent: "save" }, formToken });
    expect(again.location).toBe(fixed.location);
    expect(await leadIdsOf(org.id)).toHaveLength(1);
  });

  it("item 8: the token is single-use per action: one page's token still serves its other forms", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);
    const formToken = tokenOn((await portal("GET", "/leads/new", { session })).text);
    expect((await portal("POST", "/leads/new", { session, form: { ...completeUkForm(), intent: "save" }, formToken })).status).toBe(303);
    // The header's environment switch on the same page is another action.
    expect((await portal("POST", "/environment", { session, form: { environment: "live" }, formToken })).status).toBe(303);
  });
});

describe("issue 39 item 11: one claim for every way the token arrives", () => {
  it("three posts of one form with its token in X-Form-Token make one lead; the others are shown its outcome", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);
    const formToken = tokenOn((await portal("GET", "/leads/new", { session })).text);
    const send = () => portal("POST", "/leads/new", { session, form: { ...completeUkForm(), intent: "check" }, formToken: null, headers: { "X-Form-Token": formToken } });
    const first = await send();
    expect(first.status).toBe(303);
    const [second, third] = await Promise.all([send(), send()]);
    expect(await leadIdsOf(org.id)).toHaveLength(1);
    expect(second.location).toBe(first.location);
    expect(third.location).toBe(first.location);
    // The same token in the body is the same claim: no fourth lead either.
    const inBody = await portal("POST", "/leads/new", { session, form: { ...completeUkForm(), intent: "check" }, formToken });
    expect(inBody.location).toBe(first.location);
    expect(await leadIdsOf(org.id)).toHaveLength(1);
  });
});
