import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { personKeys } from "../../../src/domain/leads/persons";
import { call } from "../../helpers/api";
import { portal, signedInMember } from "../../helpers/portal";
import { lenderWithKeys, partnerWithKeys } from "../../helpers/seed";
import { completeUkLead, createLead, person } from "../../leads/helpers";
import { submittedLead, twoLenderPanel } from "../../routing/helpers";
import { auditOf, formVersionOf, leadVersion, messageBeside, personLinksOf } from "./helpers";
import { inData } from "../../helpers/data-db";

/** A person as the portal's form posts them (flat names). */
const personForm = (overrides: Record<string, string> = {}): Record<string, string> => ({
  full_name: "Grace Hopper",
  date_of_birth: "1976-12-09",
  "residential_address.line1": "2 Low Road",
  "residential_address.postal_code": "EH1 1AA",
  "residential_address.city": "Edinburgh",
  residency_status: "tenant",
  ownership_percent: "30",
  ...overrides,
});

async function personsOf(key: string, id: string) {
  return (await call("GET", `/partner/v1/leads/${id}`, { key })).body.significant_persons as { full_name: string; ownership_percent: number | null }[];
}

describe("partner portal: significant persons", () => {
  it("adds, edits and removes a person through the API's own list, each change audited", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const lead = await createLead(sandbox.key);

    const empty = await portal("GET", `/leads/${lead.id}/persons`, { session });
    expect(empty.status).toBe(200);
    expect(empty.text).toContain("No significant persons yet.");
    expect(empty.text).toContain('name="residential_address.postal_code"');

    const added = await portal("POST", `/leads/${lead.id}/persons`, { session, form: { ...personForm(), version: formVersionOf(empty.text)! } });
    expect(added.status).toBe(303);
    expect(added.location).toBe(`/portal/leads/${lead.id}/persons`);
    const second = await portal("POST", `/leads/${lead.id}/persons`, { session, form: { ...personForm({ full_name: "Ada Lovelace", ownership_percent: "60" }), version: await leadVersion(lead.id) } });
    expect(second.status).toBe(303);
    expect(await personsOf(sandbox.key, lead.id)).toMatchObject([
      { full_name: "Grace Hopper", ownership_percent: 30, residential_address: { city: "Edinburgh", line2: null } },
      { full_name: "Ada Lovelace", ownership_percent: 60 },
    ]);
    const listed = await portal("GET", `/leads/${lead.id}/persons?done=added`, { session });
    expect(listed.text).toContain("The person was added.");
    expect(listed.text).toContain("<strong>90%</strong> of 100%");

    const adaLink = personLinksOf(listed.text)["Ada Lovelace"].replace(/^\/portal/, "");
    const edit = await portal("GET", adaLink, { session });
    expect(edit.status).toBe(200);
    expect(edit.text).toContain('value="Ada Lovelace"');
    const saved = await portal("POST", adaLink.replace(/\/edit$/, ""), { session, form: { ...personForm({ full_name: "Ada King", ownership_percent: "70" }), version: formVersionOf(edit.text)! } });
    expect(saved.status).toBe(303);
    expect((await personsOf(sandbox.key, lead.id)).map((p) => [p.full_name, p.ownership_percent])).toEqual([
      ["Grace Hopper", 30],
      ["Ada King", 70],
    ]);

    const afterEdit = await portal("GET", `/leads/${lead.id}/persons`, { session });
    const removeGrace = personLinksOf(afterEdit.text)["Grace Hopper"].replace(/^\/portal/, "").replace(/\/edit$/, "/remove");
    const removed = await portal("POST", removeGrace, { session, form: { version: formVersionOf(afterEdit.text)! } });
    expect(removed.status).toBe(303);
    expect((await personsOf(sandbox.key, lead.id)).map((p) => p.full_name)).toEqual(["Ada King"]);

    const detail = await portal("GET", `/leads/${lead.id}`, { session });
    expect(detail.text).toContain("<bdi>Ada King</bdi>: 70% of the business between them.");
    expect((await auditOf(organisation.id)).map((a) => [a.action, a.target])).toEqual([
      ["lead.person_added", lead.id],
      ["lead.person_added", lead.id],
      ["lead.person_changed", lead.id],
      ["lead.person_removed", lead.id],
    ]);
  });

  it("asks whether the person offers a personal guarantee (a product may require one), and keeps the answer the API gave when the person is edited", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const lead = await createLead(sandbox.key);
    const page = await portal("GET", `/leads/${lead.id}/persons`, { session });
    expect(page.text).toMatch(/<input type="checkbox"[^>]*name="guarantee"/);
    const added = await portal("POST", `/leads/${lead.id}/persons`, { session, form: { ...personForm({ guarantee: "on" }), version: formVersionOf(page.text)! } });
    expect(added.status).toBe(303);
    expect((await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key })).body.significant_persons).toMatchObject([{ full_name: "Grace Hopper", guarantee: true }]);
    // The edit form shows it ticked, and a save that leaves it ticked keeps it.
    const listed = await portal("GET", `/leads/${lead.id}/persons`, { session });
    const link = personLinksOf(listed.text)["Grace Hopper"].replace(/^\/portal/, "");
    const edit = await portal("GET", link, { session });
    expect(edit.text).toMatch(/<input type="checkbox"[^>]*name="guarantee"[^>]*checked/);
    const saved = await portal("POST", link.replace(/\/edit$/, ""), { session, form: { ...personForm({ full_name: "Grace B. Hopper", guarantee: "on" }), version: formVersionOf(edit.text)! } });
    expect(saved.status).toBe(303);
    expect((await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key })).body.significant_persons).toMatchObject([{ full_name: "Grace B. Hopper", guarantee: true }]);
  });

  it("refuses an ownership total above 100% beside the ownership input, and a bad field in the person's words, writing nothing", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const lead = await createLead(sandbox.key, { ...completeUkLead(), significant_persons: [person({ ownership_percent: 60 })] });

    const version = await leadVersion(lead.id);
    const over = await portal("POST", `/leads/${lead.id}/persons`, { session, form: { ...personForm({ ownership_percent: "50" }), version } });
    expect(over.status).toBe(400);
    expect(messageBeside(over.text, "ownership_percent")).toBe("The ownership of all significant persons adds up to more than 100%.");
    expect(over.text).toContain('value="Grace Hopper"');

    const adaPath = personLinksOf((await portal("GET", `/leads/${lead.id}/persons`, { session })).text)["Ada Lovelace"].replace(/^\/portal/, "").replace(/\/edit$/, "");
    const editOver = await portal("POST", adaPath, { session, form: { ...personForm({ ownership_percent: "100.5" }), version } });
    expect(editOver.status).toBe(400);
    expect(messageBeside(editOver.text, "ownership_percent")).toBeTruthy();

    const bad = await portal("POST", `/leads/${lead.id}/persons`, { session, form: { ...personForm({ full_name: "", date_of_birth: "31/02/1984", ownership_percent: "a third" }), version } });
    expect(bad.status).toBe(400);
    expect(messageBeside(bad.text, "full_name")).toBe("Enter the full name of the person.");
    expect(messageBeside(bad.text, "date_of_birth")).not.toMatch(/date_of_birth|YYYY-MM-DD$/);
    expect(messageBeside(bad.text, "date_of_birth")).toBeTruthy();
    expect(messageBeside(bad.text, "ownership_percent")).toBe("Enter the ownership as a number, for example 11.5 or 11.5%.");
    // No dotted field path reaches a message on the page.
    expect(bad.text).not.toMatch(/class="field-error"[^>]*>[^<]*\b[a-z_]+\.[a-z_]+/);

    expect((await personsOf(sandbox.key, lead.id)).map((p) => [p.full_name, p.ownership_percent])).toEqual([["Ada Lovelace", 60]]);
    expect(await auditOf(organisation.id)).toEqual([]);
  });

  it("takes a date of birth as day, month and year in the market's order, or 12/03/1975 in one box (issue 45 item 7)", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const lead = await createLead(sandbox.key);
    const page = await portal("GET", `/leads/${lead.id}/persons`, { session });
    // Three inputs, day first for a GB lead, and the hint's example in that order.
    const parts = [...page.text.matchAll(/name="date_of_birth\.(day|month|year)"/g)].map((m) => m[1]);
    expect(parts).toEqual(["day", "month", "year"]);
    expect(page.text).toContain("Day, month and year, for example 27 3 2007.");
    const { date_of_birth: _, ...rest } = personForm();
    const three = await portal("POST", `/leads/${lead.id}/persons`, {
      session,
      form: { ...rest, "date_of_birth.day": "12", "date_of_birth.month": "3", "date_of_birth.year": "1975", version: formVersionOf(page.text)! },
    });
    expect(three.status).toBe(303);
    const again = await portal("GET", `/leads/${lead.id}/persons`, { session });
    const box = await portal("POST", `/leads/${lead.id}/persons`, { session, form: { ...personForm({ full_name: "Ada Lovelace", ownership_percent: "20%" }), date_of_birth: "12/03/1975", version: formVersionOf(again.text)! } });
    expect(box.status).toBe(303);
    const persons = (await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key })).body.significant_persons;
    expect(persons.map((p: any) => [p.full_name, p.date_of_birth, p.ownership_percent])).toEqual([["Grace Hopper", "1975-03-12", 30], ["Ada Lovelace", "1975-03-12", 20]]);
    // Shown in the market's words, not as the stored ISO date.
    const listed = await portal("GET", `/leads/${lead.id}/persons`, { session });
    expect(listed.text).toContain("12 Mar 1975");
    // A day that does not exist is refused beside the date, in words, with the parts shown back.
    const bad = await portal("POST", `/leads/${lead.id}/persons`, {
      session,
      form: { ...rest, full_name: "Alan Turing", "date_of_birth.day": "31", "date_of_birth.month": "2", "date_of_birth.year": "1975", version: formVersionOf(listed.text)! },
    });
    expect(bad.status).toBe(400);
    expect(messageBeside(bad.text, "date_of_birth")).toBe("Enter the date of birth as day, month and year, for example 27 3 2007.");
    expect(bad.text).toMatch(/name="date_of_birth\.day"[^>]*value="31"|value="31"[^>]*name="date_of_birth\.day"/);
  });

  it("a US lead's persons form asks month first and reads 03/12/1975 as 12 March", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const lead = await createLead(sandbox.key, { country: "US" });
    const page = await portal("GET", `/leads/${lead.id}/persons`, { session });
    expect([...page.text.matchAll(/name="date_of_birth\.(day|month|year)"/g)].map((m) => m[1])).toEqual(["month", "day", "year"]);
    const box = await portal("POST", `/leads/${lead.id}/persons`, { session, form: { ...personForm(), date_of_birth: "03/12/1975", version: formVersionOf(page.text)! } });
    expect(box.status).toBe(303);
    expect((await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key })).body.significant_persons[0].date_of_birth).toBe("1975-03-12");
  });

  it("shows a submitted lead's persons without forms and refuses a change to them", async () => {
    await twoLenderPanel();
    const { organisation, sandbox } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const { lead } = await submittedLead(sandbox.key, { ...completeUkLead(), significant_persons: [person()] });
    const page = await portal("GET", `/leads/${lead.id}/persons`, { session });
    expect(page.status).toBe(200);
    expect(page.text).toContain("can no longer change");
    expect(page.text).not.toContain("Add person");
    // A submitted lead's list shows no edit links; an edit address for one of its persons leads back to the list.
    expect(Object.keys(personLinksOf(page.text))).toEqual([]);
    const stored = await inData.prepare("select significant_persons from leads where id = ?").bind(lead.id).first<{ significant_persons: string }>();
    const [key] = personKeys(JSON.parse(stored!.significant_persons));
    expect((await portal("GET", `/leads/${lead.id}/persons/${key}/edit`, { session })).status).toBe(303);
    const refused = await portal("POST", `/leads/${lead.id}/persons`, { session, form: personForm({ ownership_percent: "10" }) });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect((await personsOf(sandbox.key, lead.id)).length).toBe(1);
    expect(await auditOf(organisation.id)).toEqual([]);
  });

  it("answers 404 for another partner's lead, an unknown place and a lender, and changes nothing", async () => {
    const mine = await partnerWithKeys();
    const theirs = await partnerWithKeys();
    const lead = await createLead(theirs.sandbox.key, { ...completeUkLead(), significant_persons: [person()] });
    const session = await signedInMember(mine.organisation.id, "admin");
    expect((await portal("GET", `/leads/${lead.id}/persons`, { session })).status).toBe(404);
    expect((await portal("GET", `/leads/${lead.id}/persons/0/edit`, { session })).status).toBe(404);
    expect((await portal("POST", `/leads/${lead.id}/persons`, { session, form: personForm() })).status).toBe(404);
    expect((await portal("POST", `/leads/${lead.id}/persons/0`, { session, form: personForm() })).status).toBe(404);
    expect((await portal("POST", `/leads/${lead.id}/persons/0/remove`, { session, form: { full_name: "Ada Lovelace" } })).status).toBe(404);
    expect((await personsOf(theirs.sandbox.key, lead.id)).map((p) => p.full_name)).toEqual(["Ada Lovelace"]);

    const lender = await signedInMember((await lenderWithKeys()).organisation.id, "admin");
    expect((await portal("GET", `/leads/${lead.id}/persons`, { session: lender })).status).toBe(404);

    const owner = await signedInMember(theirs.organisation.id, "member");
    expect((await portal("GET", `/leads/${lead.id}/persons/7/edit`, { session: owner })).status).toBe(404);
    expect((await portal("POST", `/leads/${lead.id}/persons/7/remove`, { session: owner, form: {} })).status).toBe(404);
    // A remove button from a page drawn before another change: nobody is removed.
    const removeAda = personLinksOf((await portal("GET", `/leads/${lead.id}/persons`, { session: owner })).text)["Ada Lovelace"].replace(/^\/portal/, "").replace(/\/edit$/, "/remove");
    const stale = await portal("POST", removeAda, { session: owner, form: { version: "0" } });
    expect(stale.status).toBe(409);
    expect(stale.text).toContain("This lead changed since you opened the page");
    expect((await personsOf(theirs.sandbox.key, lead.id)).length).toBe(1);
  });

  it("addresses a person by a stable key, not a place: a stale form after a removal in another tab is refused and writes nothing", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const three = [person({ full_name: "Ann First", ownership_percent: 10 }), person({ full_name: "Bob Second", ownership_percent: 20 }), person({ full_name: "Cy Third", ownership_percent: 30 })];
    const lead = await createLead(sandbox.key, { ...completeUkLead(), significant_persons: three });

    // Tab 1 opens Bob's edit form.
    const list = await portal("GET", `/leads/${lead.id}/persons`, { session });
    const editBob = personLinksOf(list.text)["Bob Second"];
    expect(editBob).toBeTruthy();
    expect(editBob).not.toMatch(/\/persons\/1\/edit$/);
    const form = await portal("GET", editBob.replace(/^\/portal/, ""), { session });
    expect(form.status).toBe(200);
    const version = formVersionOf(form.text);
    expect(version).toBeTruthy();
    const action = form.text.match(/<form method="post" action="([^"]+\/persons\/[^"/]+)"/)![1];

    // Tab 2 removes Ann.
    const removeAnn = list.text.match(/<form method="post" action="([^"]+\/remove)" class="inline">(?:(?!<\/form>).)*Remove <bdi>Ann First<\/bdi>/s)![1];
    const removed = await portal("POST", removeAnn.replace(/^\/portal/, ""), { session, form: { version: formVersionOf(list.text)! } });
    expect(removed.status).toBe(303);
    expect((await personsOf(sandbox.key, lead.id)).map((p) => p.full_name)).toEqual(["Bob Second", "Cy Third"]);

    // Tab 1 saves its stale form: refused with the form again, nobody overwritten.
    const stale = await portal("POST", action.replace(/^\/portal/, ""), { session, form: { ...personForm({ full_name: "Bob Changed", ownership_percent: "25" }), version: version! } });
    expect(stale.status).toBe(409);
    expect(stale.text).toContain("This lead changed since you opened the page");
    expect(stale.text).toContain('value="Bob Changed"');
    expect((await personsOf(sandbox.key, lead.id)).map((p) => [p.full_name, p.ownership_percent])).toEqual([
      ["Bob Second", 20],
      ["Cy Third", 30],
    ]);
    expect((await auditOf(organisation.id)).map((a) => a.action)).toEqual(["lead.person_removed"]);

    // Drawn again, the same person keeps the same key, and the save goes through.
    const again = await portal("GET", `/leads/${lead.id}/persons`, { session });
    expect(personLinksOf(again.text)["Bob Second"]).toBe(editBob);
    const fresh = await portal("GET", editBob.replace(/^\/portal/, ""), { session });
    const saved = await portal("POST", action.replace(/^\/portal/, ""), { session, form: { ...personForm({ full_name: "Bob Changed", ownership_percent: "25" }), version: formVersionOf(fresh.text)! } });
    expect(saved.status).toBe(303);
    expect((await personsOf(sandbox.key, lead.id)).map((p) => p.full_name)).toEqual(["Bob Changed", "Cy Third"]);
  });
});
