/**
 * Issue 23 item 10: one form for time and money across portal and hub. The
 * main pages, rendered with seeded data (a lead with offers, documents and a
 * renewal's dates; a deal with offers, a request, messages; keys, a webhook
 * endpoint, members, the audit log and events), show no raw ISO timestamp as
 * text (only `datetime` attributes and input values carry one) and no bare
 * amount beside a currency code: times read `8 Dec 2026, 06:24 GMT`, money
 * `£40,000` / `£1,250.50`.
 */
import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { portal, signedInMember, type PortalSession } from "../helpers/portal";
import { firmOffer, makeOffer, routedLead } from "../lender/helpers";
import { hubCall, requestDocuments } from "../hub/helpers";
import { pdf } from "../documents/fixtures";
import { liveSession } from "./lender/support";
import { portalUpload, switchTo } from "./partner/helpers";

/** The text a person reads: tags (with their attributes), styles and scripts taken out. */
const visibleText = (html: string) =>
  html
    .replace(/<style[\s\S]*?<\/style>/g, " ")
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<textarea[\s\S]*?<\/textarea>/g, " ")
    // An event's or a delivery's payload is shown as the JSON it is (data a developer copies), not as a page's words.
    .replace(/<pre[\s\S]*?<\/pre>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");

const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const ISO_SPACED = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}/;
/** A stored day shown as stored (`2026-11-26`): a time cut short, not the kit's form. */
const ISO_DAY = /\b20\d{2}-\d{2}-\d{2}\b/;
const BARE_MONEY = /\b(?:GBP|EUR|USD|CAD|AUD|NZD)\s?\d|\d[\d,.]*\s?(?:GBP|EUR|USD|CAD|AUD|NZD)\b|(?:Amount|Fees|Total to repay|Funded amount|Monthly revenue|Annual turnover):\s*\d/;

function expectOneFormat(html: string, where: string) {
  const text = visibleText(html);
  for (const pattern of [ISO_TIME, ISO_SPACED, ISO_DAY, BARE_MONEY]) {
    const found = text.match(pattern);
    expect(found?.[0] ?? null, `${where}: "${found ? text.slice(Math.max(0, found.index! - 60), found.index! + 60) : ""}"`).toBeNull();
  }
}

async function pages(session: PortalSession, paths: string[], who: string) {
  for (const path of paths) {
    const res = await portal("GET", path, { session });
    expect(res.status, `${who} ${path}`).toBe(200);
    expectOneFormat(res.text, `${who} ${path}`);
  }
}

describe("one format for time and money", () => {
  it("the partner's, the lender's and the hub's main pages show no ISO timestamp and no bare amount", { timeout: 120_000 }, async () => {
    const { keys, refA, lead, partner, a } = await routedLead();
    await makeOffer(keys.a.live, refA, firmOffer({ fees: 1_250.5 }));
    const request = await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id });
    await call("POST", `/v1/deals/${refA}/messages`, { key: keys.a.live, body: { body: "Please send the statements." } });

    // The partner, admin, in live: the lead with its offer and a document, keys, a webhook endpoint, members, audit, events.
    const partnerAdmin = await signedInMember(partner.organisation.id, "admin");
    await switchTo(partnerAdmin, "live");
    expect((await portalUpload(`/leads/${lead.id}/documents`, partnerAdmin, { document_type: "other" }, { bytes: pdf(), name: "deck.pdf" })).status).toBe(303);
    expect((await portal("POST", "/keys", { session: partnerAdmin, form: { type: "secret" } })).status).toBe(201);
    await pages(partnerAdmin, ["/", "/leads", `/leads/${lead.id}`, `/leads/${lead.id}/persons`, "/keys", "/webhooks", "/members", "/audit", "/events", "/prequalification", "/website-form"], "partner");

    // The lender, in live: overview, queue, deals, the deal page.
    const lender = await liveSession(a.id, "admin");
    await pages(lender, ["/", "/queue", "/deals", `/deals/${refA}`, "/keys", "/webhooks", "/audit", "/events"], "lender");

    // The business, in the hub.
    const read = await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key });
    const hub = new URL(read.body.upload_url).pathname;
    for (const path of ["", `/requests/${request.id}`, `/deals/${refA}/messages`]) {
      const res = await hubCall("GET", `${hub}${path}`);
      expect(res.status, `hub ${path}`).toBe(200);
      expectOneFormat(res.text, `hub ${path || "/"}`);
    }
  });
});
