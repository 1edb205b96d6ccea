import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../../helpers/api";
import { portal, signedInMember } from "../../helpers/portal";
import { createOrganisation, lenderWithKeys } from "../../helpers/seed";
import { uploadDocument } from "../../documents/helpers";
import { bytes, csvWithFormula, signedAmountCsv } from "../../documents/fixtures";
import { developerWords, lenderAtLiveDeal } from "./support";
import { firmOffer, makeOffer, pdfBytes } from "../../lender/helpers";

const testDeal = async (key: string) => {
  const res = await call("POST", "/v1/test/deals", { key, body: {} });
  if (res.status !== 201) throw new Error(`test deal: ${res.status} ${res.text}`);
  return res.body.ref as string;
};

/** The deal refs linked from a list page, in order. */
const listed = (html: string) => [...html.matchAll(/<tr data-deal="([^"]+)"/g)].map((m) => m[1]);
const countOf = (html: string, status: string) => Number(html.match(new RegExp(`data-status="${status}">(\\d+)<`))?.[1]);

describe("lender portal pages", () => {
  it("the overview counts the deals of the environment the member looks at, by lender_status", async () => {
    const { session, refA, keys } = await lenderAtLiveDeal();
    await call("POST", `/v1/deals/${refA}/status`, { key: keys.a.live, body: { status: "in_review" } });
    const live = await portal("GET", "/", { session });
    expect(live.status).toBe(200);
    expect(countOf(live.text, "in_review")).toBe(1);
    expect(countOf(live.text, "new")).toBe(0);
    expect(live.text).toContain('href="/portal/deals?status=in_review"');
    await portal("POST", "/environment", { session, form: { environment: "sandbox" } });
    const sandbox = await portal("GET", "/", { session });
    expect(countOf(sandbox.text, "in_review")).toBe(0);
  });

  it("lists only the lender's deals of the chosen environment, filtered by lender_status, a keyset page at a time", async () => {
    const lender = await lenderWithKeys();
    const refs = [await testDeal(lender.sandbox.key), await testDeal(lender.sandbox.key), await testDeal(lender.sandbox.key)];
    await call("POST", `/v1/deals/${refs[0]}/status`, { key: lender.sandbox.key, body: { status: "in_review" } });
    const other = await lenderWithKeys();
    await testDeal(other.sandbox.key);
    const session = await signedInMember(lender.organisation.id, "member");

    const all = await portal("GET", "/deals", { session });
    expect(all.status).toBe(200);
    expect(listed(all.text).sort()).toEqual([...refs].sort());

    const first = await portal("GET", "/deals?limit=2", { session });
    expect(listed(first.text)).toHaveLength(2);
    const next = first.text.match(/href="([^"]+)" rel="next"/)![1].replace(/&amp;/g, "&");
    expect(next).toMatch(/^\/portal\/deals\?limit=2&cursor=/);
    const second = await portal("GET", next.replace("/portal", ""), { session });
    expect(second.status).toBe(200);
    expect([...listed(first.text), ...listed(second.text)].sort()).toEqual([...refs].sort());
    expect(second.text).not.toContain('rel="next"');

    const inReview = await portal("GET", "/deals?status=in_review", { session });
    expect(listed(inReview.text)).toEqual([refs[0]]);

    // The live list holds none of the sandbox deals.
    await portal("POST", "/environment", { session, form: { environment: "live" } });
    expect(listed((await portal("GET", "/deals", { session })).text)).toEqual([]);
  });

  it("refuses an unknown status beside the filter and a cursor it did not issue, with 400", async () => {
    const lender = await lenderWithKeys();
    const session = await signedInMember(lender.organisation.id, "member");
    const badStatus = await portal("GET", "/deals?status=approved", { session });
    expect(badStatus.status).toBe(400);
    expect(badStatus.text).toMatch(/<span class="field-error" id="status-error" role="alert">Choose the status from the list\./);
    expect(badStatus.text).toContain('aria-describedby="status-error"');
    expect((await portal("GET", "/deals?cursor=forged", { session })).status).toBe(400);
    expect((await portal("GET", "/deals?limit=0", { session })).status).toBe(400);
  });

  it("shows a deal with its market and register facts, documents with signed links, requests, messages, offers and completion", async () => {
    const { session, refA, lead, partner, keys } = await lenderAtLiveDeal();
    const statement = await uploadDocument(partner.live.key, lead.id, "bank_statements", bytes(signedAmountCsv), "apr-may.csv");
    await call("POST", `/v1/deals/${refA}/messages`, { key: keys.a.live, body: { body: "Could you send last month's statement?" } });
    await call("POST", `/v1/deals/${refA}/requests`, { key: keys.a.live, body: { item_type: "vat_returns" } });

    const page = await portal("GET", `/deals/${refA.toLowerCase()}`, { session });
    expect(page.status).toBe(200);
    for (const heading of ["Summary", "Market facts", "Company register", "Offers", "Report your status", "Documents", "Document requests", "Messages", "Completion"]) {
      expect(page.text).toContain(`>${heading}</h2>`);
    }
    // The same signed link the API hands out, and it downloads the file.
    const api = await call("GET", `/v1/deals/${refA}`, { key: keys.a.live });
    const link = page.text.match(new RegExp(`<a href="([^"]+)" data-document="${statement.id}"`))![1].replace(/&amp;/g, "&");
    expect(link.split("?")[0]).toBe(api.body.documents[0].url.split("?")[0]);
    const { pathname, search } = new URL(link);
    const file = await call("GET", `${pathname}${search}`);
    expect(file.status).toBe(200);
    expect(file.text).toBe(signedAmountCsv);
    expect(page.text).toContain("Monthly revenue</th><td dir=\"auto\">£2,000 (from the bank statements)");
    expect(page.text).toContain("Recent VAT returns");
    expect(page.text).toContain("Could you send last month&#39;s statement?");
    expect(page.text).toContain('<td data-completion="agreement">not yet</td>');
  });

  it("warns beside a CSV with formula cells, before the lender opens it, and says nothing beside a clean one", async () => {
    const { session, refA, lead, partner } = await lenderAtLiveDeal();
    const flagged = await uploadDocument(partner.live.key, lead.id, "bank_statements", bytes(csvWithFormula), "apr-may.csv");
    const clean = await uploadDocument(partner.live.key, lead.id, "other", bytes(signedAmountCsv), "clean.csv");
    const page = await portal("GET", `/deals/${refA}`, { session });
    const rowOf = (id: string) => page.text.match(new RegExp(`<tr[^>]*>(?:(?!</tr>).)*data-document="${id}"(?:(?!</tr>).)*</tr>`, "s"))?.[0] ?? "";
    expect(rowOf(flagged.id)).toContain('data-formula-cells="true"');
    expect(rowOf(flagged.id)).toMatch(/formula cells/i);
    expect(rowOf(clean.id)).not.toMatch(/formula/i);
  });

  it("shows the register's answer on a sandbox test deal (the register's fixture company)", async () => {
    const lender = await lenderWithKeys();
    const ref = await testDeal(lender.sandbox.key);
    const api = await call("GET", `/v1/deals/${ref}`, { key: lender.sandbox.key });
    const session = await signedInMember(lender.organisation.id, "member");
    const page = await portal("GET", `/deals/${ref}`, { session });
    expect(page.status).toBe(200);
    const registry = api.body.market.registry;
    expect(registry.status).toBe("available");
    expect(page.text).toContain(`Registered name</th><td dir="auto">${registry.registered_name}</td>`);
    expect(page.text).toContain(`Company status</th><td dir="auto">${registry.company_status.charAt(0).toUpperCase()}${registry.company_status.slice(1)}</td>`);
    expect(page.text).toContain('VAT valid</th><td dir="auto">yes</td>');
    // A register's day reads as a person writes it (14 Mar 2019), not as stored (2019-03-14).
    expect(registry.incorporated_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const [year, month, dayOfMonth] = registry.incorporated_on.split("-").map(Number);
    const written = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", year: "numeric", month: "short", day: "numeric" }).format(Date.UTC(year, month - 1, dayOfMonth));
    expect(page.text).toContain(`Incorporated on</th><td dir="auto">${written}</td>`);
    expect(page.text).not.toContain(registry.incorporated_on);
    expect(page.text).toContain("A test deal has no client");
  });

  it("issue 45 item 10: a signed test deal's page shows no developer word; the channel is an admin's, in its own section", async () => {
    const lender = await lenderWithKeys();
    const key = lender.sandbox.key;
    const ref = await testDeal(key);
    await makeOffer(key, ref, firmOffer());
    for (const event of ["offer.accepted", "deal.account_submitted"]) await call("POST", `/v1/test/deals/${ref}/simulate`, { key, body: { event } });
    await call("PUT", `/v1/deals/${ref}/agreement`, { key, rawBody: pdfBytes(), contentType: "application/pdf" });
    await call("POST", `/v1/test/deals/${ref}/simulate`, { key, body: { event: "deal.agreement_signed" } });
    const member = await portal("GET", `/deals/${ref}`, { session: await signedInMember(lender.organisation.id, "member") });
    expect(member.status).toBe(200);
    expect(developerWords(member.text)).toEqual([]);
    expect(member.text).not.toContain("For your integration");
    const admin = await portal("GET", `/deals/${ref}`, { session: await signedInMember(lender.organisation.id, "admin") });
    expect(developerWords(admin.text)).toEqual([]);
    expect(admin.text).toContain('id="api-fields"');
    expect(admin.text).toContain("Introducer&#39;s channel");
  });

  it("answers 404 for another lender's deal, a deal of the other environment and an unknown ref", async () => {
    const { session, refA, refB } = await lenderAtLiveDeal();
    expect((await portal("GET", `/deals/${refB}`, { session })).status).toBe(404);
    expect((await portal("GET", "/deals/DL-NOSUCH00", { session })).status).toBe(404);
    await portal("POST", "/environment", { session, form: { environment: "sandbox" } });
    const sandbox = await portal("GET", `/deals/${refA}`, { session });
    expect(sandbox.status).toBe(404);
    expect(sandbox.text).not.toContain(refA);
  });

  it("answers 404 on every lender page for a partner's member", async () => {
    const { refA } = await lenderAtLiveDeal();
    const partner = await createOrganisation("partner");
    const session = await signedInMember(partner.id, "admin");
    for (const path of ["/deals", `/deals/${refA}`, "/deals?status=new"]) expect((await portal("GET", path, { session })).status).toBe(404);
    const post = await portal("POST", `/deals/${refA}/messages`, { session, form: { body: "hello" } });
    expect(post.status).toBe(404);
    const { n } = (await env.DB.prepare("select count(*) n from deal_messages where deal_ref = ?").bind(refA).first<{ n: number }>())!;
    expect(n).toBe(0);
    // A partner's home is not the lender overview.
    expect((await portal("GET", "/", { session })).text).not.toContain("Deals by your status");
  });
});
