/**
 * Issue 23 item 9, the leftovers: the environment badge, the events page's subject column and the other
 * enum values the portal printed raw (a market's code, a webhook's payload mode and attempt trigger, a
 * register's reason) are shown in words from one label source, and an event's subject is what a person
 * reads: the lead's business name and its `RF-…` reference (linked to the lead), a deal's `DL-…`
 * reference (linked to the deal), read in SQL inside the viewer's organisation and environment.
 */
import { describe, expect, it } from "vitest";
import { ENVIRONMENT_LABELS } from "../../src/domain/portal/audit-actions";
import { portal, signedInMember } from "../helpers/portal";
import { partnerWithKeys } from "../helpers/seed";
import { completeUkLead } from "../leads/helpers";
import { routedLead } from "../lender/helpers";
import { submittedLead, twoLenderPanel } from "../routing/helpers";
import { receiverBucket } from "../webhooks/support/webhooks";
import { switchTo } from "./partner/helpers";

const badgeOf = (html: string) => /<span class="env"[^>]*>([\s\S]*?)<\/span>/.exec(html)?.[1].trim();
/** The events table's subject cells (the last cell of each row). */
const subjectCells = (html: string) => [...html.matchAll(/<td data-label="Subject"[^>]*>([\s\S]*?)<\/td>/g)].map((m) => m[1]);
const text = (html: string) => html.replace(/<[^>]*>/g, " ").replace(/&amp;/g, "&").replace(/\s+/g, " ").trim();

describe("the portal shows words, not codes (issue 23 item 9)", () => {
  it("labels the environment badge from the one list", async () => {
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const label = (value: string) => ENVIRONMENT_LABELS.find((e) => e.value === value)!.label;
    expect(badgeOf((await portal("GET", "/", { session })).text)).toBe(label("sandbox"));
    await switchTo(session, "live");
    expect(badgeOf((await portal("GET", "/leads", { session })).text)).toBe(label("live"));
  });

  it("names a partner's event subject by the business and its reference, linked to the lead, and never another's", async () => {
    await twoLenderPanel();
    const { organisation, sandbox } = await partnerWithKeys();
    const business = `Readable Bakery ${crypto.randomUUID().slice(0, 6)}`;
    const mine = await submittedLead(sandbox.key, { ...completeUkLead(), business: { ...completeUkLead().business, name: business } });
    const other = await partnerWithKeys();
    await submittedLead(other.sandbox.key, { ...completeUkLead(), business: { ...completeUkLead().business, name: "Someone Else Ltd" } });
    const session = await signedInMember(organisation.id, "member");
    const page = await portal("GET", "/events", { session });
    expect(page.status).toBe(200);
    const cells = subjectCells(page.text);
    expect(cells.length).toBeGreaterThan(0);
    for (const cell of cells) {
      expect(cell).toContain(`href="/portal/leads/${mine.lead.id}"`);
      expect(text(cell)).toContain(business);
      expect(text(cell)).toContain(mine.lead.reference);
      expect(text(cell)).not.toContain(`lead ${mine.lead.id}`);
      expect(cell).not.toContain(`>${mine.lead.id}<`);
    }
    expect(page.text).not.toContain("Someone Else Ltd");
  });

  it("names a lender's event subject by the deal's reference, linked to the deal", async () => {
    const { a, refA } = await routedLead();
    const session = await signedInMember(a.id, "member");
    await switchTo(session, "live");
    const page = await portal("GET", "/events", { session });
    const cells = subjectCells(page.text);
    expect(cells.length).toBeGreaterThan(0);
    const deal = cells.find((cell) => cell.includes(`href="/portal/deals/${refA}"`));
    expect(deal).toBeDefined();
    expect(text(deal!)).toContain(refA);
    expect(text(deal!)).not.toMatch(/\bdeal DL-/);
  });

  it("shows the market's name, the payload mode and the attempt's trigger in words", async () => {
    const { organisation } = await partnerWithKeys();
    const admin = await signedInMember(organisation.id, "admin");
    const created = await portal("POST", "/leads/new", { session: admin, form: { country: "GB", "business.name": "Words Ltd", intent: "save" } });
    const leadPath = created.headers.get("location")?.replace(/^\/portal/, "").replace(/\?.*$/, "");
    expect(leadPath).toMatch(/^\/leads\/[^/]+$/);
    const list = await portal("GET", "/leads", { session: admin });
    const market = [...list.text.matchAll(/<td data-label="Market"[^>]*>([\s\S]*?)<\/td>/g)].map((m) => text(m[1]));
    expect(market).toContain("United Kingdom");
    expect(market).not.toContain("GB");
    expect(text((await portal("GET", leadPath!, { session: admin })).text)).toContain("United Kingdom");

    const receiver = receiverBucket();
    const registered = await portal("POST", "/webhooks", { session: admin, form: { url: receiver.url("ok"), events: ["lead.funded"], payload: "reference" } });
    const id = /href="\/portal\/webhooks\/(whe_[a-z0-9]+)"/.exec(registered.text)![1];
    expect((await portal("POST", `/webhooks/${id}/test`, { session: admin, form: {} })).status).toBe(303);
    const endpoint = (await portal("GET", `/webhooks/${id}`, { session: admin })).text;
    const payload = /<dt[^>]*>Payload<\/dt>\s*<dd>([\s\S]*?)<\/dd>/.exec(endpoint)?.[1];
    expect(text(payload ?? "")).not.toBe("reference");
    expect(text(payload ?? "")).toMatch(/^Reference/);
    expect(endpoint).not.toMatch(/\((automatic|manual)\)/);
    const webhooks = (await portal("GET", "/webhooks", { session: admin })).text;
    expect(text(webhooks)).toContain("payload: Reference");
  });
});
