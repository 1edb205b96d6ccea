import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../../helpers/api";
import { portal, signedInMember } from "../../helpers/portal";
import { partnerWithKeys } from "../../helpers/seed";
import { createLead } from "../../leads/helpers";
import { firmOffer, makeOffer, routedLead } from "../../lender/helpers";
import { submittedLead, twoLenderPanel } from "../../routing/helpers";
import { auditOf, completeUkForm, eventNamesOf, formVersionOf, leadIdsOf, messageBeside, openAndSubmit, submitThroughCheck, switchTo } from "./helpers";
import { inData } from "../../helpers/data-db";

const leadIdOf = (location: string | null) => location!.match(/^\/portal\/leads\/([0-9a-f-]{36})$/)![1];

describe("partner portal: open, fill in, submit and accept", () => {
  it("re-renders a bad field with 400 and the API's message beside it, and writes nothing", async () => {
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const res = await portal("POST", "/leads/new", { session, form: { ...completeUkForm(), "contact.email": "not-an-email", "funding.amount": "lots" } });
    expect(res.status).toBe(400);
    expect(messageBeside(res.text, "contact.email")).toBe("Enter the email like name@example.com.");
    expect(messageBeside(res.text, "funding.amount")).toBe("Enter the amount as a number, for example 50,000 or 50k.");
    expect(res.text).toContain('aria-describedby="contact.email-error"');
    // The summary above the form links to every problem (issue 45 item 7).
    expect(res.text).toMatch(/<ul class="error-links"[^>]*><li><a href="#contact.email-error"[^>]*>Enter the email like name@example.com.<\/a><\/li><li><a href="#funding.amount-error"/);
    expect(res.text).toContain('value="not-an-email"');
    expect(await leadIdsOf(organisation.id)).toEqual([]);
    expect(await auditOf(organisation.id)).toEqual([]);

    const market = await portal("POST", "/leads/new", { session, form: { ...completeUkForm(), country: "DE" } });
    expect(market.status).toBe(400);
    expect(messageBeside(market.text, "country")).toBeTruthy();
    // A service refusal (the market's own rule) lands beside its field too.
    const spain = await portal("POST", "/leads/new", { session, form: { country: "ES", "business.company_number": "B12345678" } });
    expect(spain.status).toBe(400);
    expect(messageBeside(spain.text, "business.company_number")).toBeTruthy();
    expect(await leadIdsOf(organisation.id)).toEqual([]);
  });

  it("opens a draft, edits it and submits it, firing the same events as the API, each step audited", async () => {
    await twoLenderPanel();
    const { organisation, sandbox } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const { "business.company_number": _omitted, ...withoutNumber } = completeUkForm();
    const created = await portal("POST", "/leads/new", { session, form: { ...withoutNumber, intent: "save" } });
    expect(created.status).toBe(303);
    const id = leadIdOf(created.location);
    const draft = await call("GET", `/partner/v1/leads/${id}`, { key: sandbox.key });
    expect(draft.body).toMatchObject({ state: "draft", business: { name: "Widgets Ltd" }, funding: { amount: 40_000 }, consent: { obtained: true, obtained_at: "2026-11-01T10:00:00Z" } });

    const missing = await submitThroughCheck(session, id);
    expect(missing.status).toBe(422);
    expect(messageBeside(missing.text, "business.company_number")).toBe("Company number is needed before you can submit.");
    expect(await eventNamesOf(id)).toEqual([]);

    const edit = await portal("GET", `/leads/${id}/edit`, { session });
    expect(edit.status).toBe(200);
    expect(edit.text).toContain('value="Widgets Ltd"');
    const saved = await portal("POST", `/leads/${id}/edit`, { session, form: { ...completeUkForm(), "contact.phone": "", intent: "check", version: formVersionOf(edit.text)! } });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/portal/leads/${id}/check`);
    const submitted = await submitThroughCheck(session, id);
    expect(submitted.location).toBe(`/portal/leads/${id}`);

    const viaApi = await submittedLead(sandbox.key);
    expect(await eventNamesOf(id)).toEqual(await eventNamesOf(viaApi.lead.id));
    expect(await eventNamesOf(id)).toEqual(["lead.submitted", "lead.matched", "lead.offers_available"]);
    const after = await call("GET", `/partner/v1/leads/${id}`, { key: sandbox.key });
    expect(after.body).toMatchObject({ state: "offers_available", contact: { phone: null }, business: { company_number: "01234567" } });
    expect((await portal("GET", `/leads/${id}/edit`, { session })).status).toBe(303);

    expect((await auditOf(organisation.id)).map((a) => [a.action, a.target, a.environment, a.member_id])).toEqual([
      ["lead.created", id, "sandbox", session.memberId],
      ["lead.amended", id, "sandbox", session.memberId],
      ["lead.submitted", id, "sandbox", session.memberId],
    ]);
  });

  it("shows the sandbox's simulated offers and accepts one through the API's acceptOffer", async () => {
    await twoLenderPanel();
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const { id } = await openAndSubmit(session);
    const detail = await portal("GET", `/leads/${id}?done=submitted`, { session });
    expect(detail.text).toContain("The lead was submitted.");
    expect(detail.text).toContain("simulated");
    // Each offer's button leads to its review step (issue 23 item 7); the review page holds the form that accepts.
    const actions = [...detail.text.matchAll(/href="(\/portal\/leads\/[^"]+\/offers\/([^"]+)\/accept)"/g)];
    expect(actions).toHaveLength(2);
    const [, action, offerId] = actions[0];

    const other = await partnerWithKeys();
    const stranger = await signedInMember(other.organisation.id, "member");
    expect((await portal("POST", action.replace("/portal", ""), { session: stranger, form: {} })).status).toBe(404);

    const accepted = await portal("POST", action.replace("/portal", ""), { session, form: {} });
    expect(accepted.status).toBe(303);
    expect(accepted.location).toBe(`/portal/leads/${id}`);
    expect((await eventNamesOf(id)).at(-1)).toBe("lead.offer_accepted");
    const refused = await portal("POST", actions[1][1].replace("/portal", ""), { session, form: {} });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain("Another offer on this lead was accepted");
    expect((await auditOf(organisation.id)).filter((a) => a.action === "offer.accepted").map((a) => a.target)).toEqual([offerId]);
  });

  it("accepts a live lender's offer and hands it over with offer.accepted, as the API's accept route does", async () => {
    const { keys, refA, partner, lead, a } = await routedLead();
    const offer = await makeOffer(keys.a.live, refA, firmOffer());
    const session = await signedInMember(partner.organisation.id, "member");
    expect((await portal("POST", `/leads/${lead.id}/offers/${offer.id}/accept`, { session, form: {} })).status).toBe(404);
    await switchTo(session, "live");
    const accepted = await portal("POST", `/leads/${lead.id}/offers/${offer.id}/accept`, { session, form: {} });
    expect(accepted.status).toBe(303);
    const handover = await call("GET", `/v1/events?event=offer.accepted&subject=${refA}`, { key: keys.a.live });
    expect(handover.status).toBe(200);
    expect(handover.body.events).toHaveLength(1);
    expect(handover.body.events[0]).toMatchObject({ event: "offer.accepted", subject: { type: "deal", id: refA } });
    expect(a.id).toBeTruthy();
    const partnerFeed = await call("GET", `/partner/v1/events?event=lead.offer_accepted&subject=${lead.id}`, { key: partner.live.key });
    expect(partnerFeed.body.events).toHaveLength(1);
  });

  it("refuses a stale edit form with the form again and nothing written: an API change made meanwhile stays", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const lead = await createLead(sandbox.key);
    const edit = await portal("GET", `/leads/${lead.id}/edit`, { session });
    const version = formVersionOf(edit.text);
    expect(version).toBeTruthy();
    // The integration changes the amount and the phone through the API while the form is open.
    const patched = await call("PATCH", `/partner/v1/leads/${lead.id}`, { key: sandbox.key, body: { funding: { amount: 55_000 }, contact: { phone: "+44 20 7946 1111" } } });
    expect(patched.status).toBe(200);
    const stale = await portal("POST", `/leads/${lead.id}/edit`, { session, form: { ...completeUkForm(), "business.name": "Renamed Ltd", version: version!, intent: "save" } });
    expect(stale.status).toBe(409);
    expect(stale.text).toContain("This lead changed since you opened the page");
    expect(stale.text).toContain('value="Renamed Ltd"');
    const read = await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key });
    expect(read.body).toMatchObject({ business: { name: "Widgets Ltd" }, funding: { amount: 55_000 }, contact: { phone: "+44 20 7946 1111" } });
    expect((await auditOf(organisation.id)).filter((a) => a.action === "lead.amended")).toEqual([]);
  });

  it("lets exactly one of two saves drawn from the same version through, 20 times over", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const lead = await createLead(sandbox.key);
    for (let round = 0; round < 20; round++) {
      const version = formVersionOf((await portal("GET", `/leads/${lead.id}/edit`, { session })).text)!;
      const save = (name: string) => portal("POST", `/leads/${lead.id}/edit`, { session, form: { ...completeUkForm(), "business.name": name, version, intent: "save" } });
      const answers = await Promise.all([save(`Tab A ${round}`), save(`Tab B ${round}`)]);
      expect(answers.map((a) => a.status).sort(), `round ${round}`).toEqual([303, 409]);
      const winner = answers[0].status === 303 ? `Tab A ${round}` : `Tab B ${round}`;
      expect((await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key })).body.business.name, `round ${round}`).toBe(winner);
    }
    expect((await auditOf(organisation.id)).filter((a) => a.action === "lead.amended")).toHaveLength(20);
  });

  it("shows the API's channel to admins only, in its own section and in plain words; a member's save leaves it as it is (issue 45 item 10)", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const admin = await signedInMember(organisation.id, "admin");
    const member = await signedInMember(organisation.id, "member");
    const adminForm = (await portal("GET", "/leads/new", { session: admin })).text;
    expect(adminForm).toMatch(/<legend>For your integration<\/legend>[\s\S]*name="channel.name"/);
    const memberForm = (await portal("GET", "/leads/new", { session: member })).text;
    expect(memberForm).not.toContain('name="channel.name"');
    expect(memberForm).not.toContain("For your integration");
    for (const text of [adminForm, memberForm]) {
      expect(text).not.toContain("Channel name");
      expect(text).not.toMatch(/major units|channel: portal/);
    }
    const lead = await createLead(sandbox.key);
    const edit = await portal("GET", `/leads/${lead.id}/edit`, { session: member });
    expect(edit.text).not.toContain("Acme Books");
    const { "channel.name": _n, "channel.domain": _d, ...form } = completeUkForm();
    const saved = await portal("POST", `/leads/${lead.id}/edit`, { session: member, form: { ...form, "business.name": "Kept Channel Ltd", version: formVersionOf(edit.text)!, intent: "save" } });
    expect(saved.status).toBe(303);
    const read = await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key });
    expect(read.body).toMatchObject({ business: { name: "Kept Channel Ltd" }, channel: { name: "Acme Books", domain: "acmebooks.example" } });
    const adminEdit = await portal("GET", `/leads/${lead.id}/edit`, { session: admin });
    expect(adminEdit.text).toContain('value="Acme Books"');
  });

  it("reads the consent's date and time in the member's own zone, and shows it back in it (issue 45 item 10)", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    expect((await portal("POST", "/settings", { session, form: { display_name: "", time_zone: "Europe/Paris" } })).status).toBe(303);
    const form = (await portal("GET", "/leads/new", { session })).text;
    expect(form).toContain("When the applicant consented");
    expect(form).toContain("In your time zone, Europe/Paris");
    expect(form).not.toContain("(UTC)");
    const created = await portal("POST", "/leads/new", { session, form: { ...completeUkForm(), intent: "save" } });
    expect(created.status).toBe(303);
    const id = leadIdOf(created.location);
    expect((await call("GET", `/partner/v1/leads/${id}`, { key: sandbox.key })).body.consent.obtained_at).toBe("2026-11-01T09:00:00Z");
    expect((await portal("GET", `/leads/${id}/edit`, { session })).text).toMatch(/name="consent.obtained_at"[^>]*value="2026-11-01T10:00"/);
  });

  it("keeps a draft of another organisation out of reach of edits", async () => {
    const other = await partnerWithKeys();
    const theirs = await createLead(other.sandbox.key);
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    expect((await portal("POST", `/leads/${theirs.id}/edit`, { session, form: completeUkForm() })).status).toBe(404);
    expect((await call("GET", `/partner/v1/leads/${theirs.id}`, { key: other.sandbox.key })).body.updated_at).toBe(theirs.updated_at);
  });
});

describe("partner portal: check your answers before submitting (issue 45 item 1)", () => {
  it("submits only from the check page, which lists every answer with its Change link and what is still missing", async () => {
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const form = await portal("GET", "/leads/new", { session });
    expect(form.text).not.toContain('value="submit"');
    expect(form.text).toContain("Save and check your answers");
    const { "business.company_number": _number, ...withoutNumber } = completeUkForm();
    const created = await portal("POST", "/leads/new", { session, form: { ...withoutNumber, intent: "check" } });
    expect(created.status).toBe(303);
    const id = created.location!.match(/^\/portal\/leads\/([0-9a-f-]{36})\/check$/)![1];

    // The lead page of a draft posts no submit: it leads to the check page.
    const page = await portal("GET", `/leads/${id}`, { session });
    expect(page.text).not.toContain(`action="/portal/leads/${id}/submit"`);
    expect(page.text).toContain(`href="/portal/leads/${id}/check"`);

    const check = await portal("GET", `/leads/${id}/check`, { session });
    expect(check.status).toBe(200);
    for (const heading of ["Business", "Contact", "Funding and trading", "Significant persons", "Documents", "Still missing"]) expect(check.text).toContain(`>${heading}</h2>`);
    expect(check.text).toContain("Widgets Ltd");
    expect(check.text).toContain("ada@example.com");
    expect(check.text).toContain(`href="/portal/leads/${id}/edit#f-contact-email"`);
    // What is missing: the market's mandatory company number (so no submit form), no persons, no documents.
    expect(check.text).toContain('data-missing="business.company_number"');
    expect(check.text).toContain('data-missing="significant_persons"');
    expect(check.text).toContain('data-missing="documents"');
    expect(check.text).toContain("data-cannot-submit");
    expect(check.text).not.toContain(`action="/portal/leads/${id}/submit"`);

    // A submit posted without the checked version (a form of another page, a replay) is not sent: back to the check page.
    const unchecked = await portal("POST", `/leads/${id}/submit`, { session, form: {} });
    expect(unchecked.status).toBe(303);
    expect(unchecked.location).toBe(`/portal/leads/${id}/check`);
    expect(unchecked.headers.get("Location")).toMatch(/\/check\?changed=1$/);
    expect(await eventNamesOf(id)).toEqual([]);

    const edit = await portal("GET", `/leads/${id}/edit`, { session });
    await portal("POST", `/leads/${id}/edit`, { session, form: { ...completeUkForm(), intent: "check", version: formVersionOf(edit.text)! } });
    const ready = await portal("GET", `/leads/${id}/check`, { session });
    expect(ready.text).not.toContain('data-missing="business.company_number"');
    expect(ready.text).toContain(`action="/portal/leads/${id}/submit"`);
    const checkedVersion = formVersionOf(ready.text)!;
    // A change after the check: the checked answers are no longer the lead's, so nothing is submitted.
    const again = await portal("GET", `/leads/${id}/edit`, { session });
    await portal("POST", `/leads/${id}/edit`, { session, form: { ...completeUkForm(), "contact.phone": "", intent: "save", version: formVersionOf(again.text)! } });
    const stale = await portal("POST", `/leads/${id}/submit`, { session, form: { version: checkedVersion } });
    expect(stale.location).toBe(`/portal/leads/${id}/check`);
    expect((await portal("GET", `/leads/${id}/check?changed=1`, { session })).text).toContain("nothing was submitted");
    expect(await eventNamesOf(id)).toEqual([]);

    const submitted = await submitThroughCheck(session, id);
    expect(submitted.status).toBe(303);
    expect(submitted.location).toBe(`/portal/leads/${id}`);
    expect(await eventNamesOf(id)).toContain("lead.submitted");
    // A submitted lead has no check page: it answers with the lead.
    expect((await portal("GET", `/leads/${id}/check`, { session })).location).toBe(`/portal/leads/${id}`);
  });
});

describe("partner portal: the application on the lead page (issue 45 item 4)", () => {
  it("lists contact name, email, phone, company number, VAT, purpose and consent, with Change links while a draft", async () => {
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const created = await portal("POST", "/leads/new", { session, form: { ...completeUkForm(), intent: "save" } });
    const id = leadIdOf(created.location);
    const page = await portal("GET", `/leads/${id}`, { session });
    const application = page.text.slice(page.text.indexOf('id="application"'), page.text.indexOf('id="offers"'));
    for (const shown of ["Contact name", "<bdi>Ada Lovelace</bdi>", "ada@example.com", "+44 20 7946 0000", "01234567", "GB123456789", "Working capital", "Given on", "with a soft credit search"]) expect(application).toContain(shown);
    expect(application).toContain(`href="/portal/leads/${id}/edit#f-contact-phone"`);
    expect(application).toContain(`href="/portal/leads/${id}/edit#f-business-vat-number"`);
    expect(application).not.toContain("working_capital");

    await submitThroughCheck(session, id);
    const submitted = await portal("GET", `/leads/${id}`, { session });
    const after = submitted.text.slice(submitted.text.indexOf('id="application"'), submitted.text.indexOf('id="offers"'));
    expect(after).toContain("ada@example.com");
    expect(after).not.toContain("/edit#");
  });
});

describe("partner portal: one business, one introducer", () => {
  it("a second open lead for the same company re-renders the form with the message beside the company number (409)", async () => {
    await twoLenderPanel();
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    // 00000021: the sandbox company attribution applies to (docs/leads.md, "Attribution"); clean for reruns.
    await inData.prepare("update company_claims set active = 0 where environment = 'sandbox' and company_key = 'GB:register:00000021'").run();
    const form = { ...completeUkForm(), "business.company_number": "00000021" };
    const first = await openAndSubmit(session, form);
    expect(first.submitted.status).toBe(303);
    const { submitted: second } = await openAndSubmit(session, form);
    expect(second.status).toBe(409);
    expect(messageBeside(second.text, "business.company_number")).toMatch(/already has an open submitted lead for this company/);
  });
});
