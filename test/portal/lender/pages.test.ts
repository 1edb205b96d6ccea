import { env } from "cloudflare:workers";
import { inData } from "../../helpers/data-db";
import { describe, expect, it } from "vitest";
import { call } from "../../helpers/api";
import { portal, signedInMember } from "../../helpers/portal";
import { createOrganisation, lenderWithKeys } from "../../helpers/seed";
import { uploadDocument } from "../../documents/helpers";
import { bytes, csvWithFormula, signedAmountCsv } from "../../documents/fixtures";
import { auditOf, developerWords, lenderAtLiveDeal, liveSession } from "./support";
import { routedLead } from "../../lender/helpers";
import { completeUkLead, person } from "../../leads/helpers";
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

  it("issue 45 item 6: directors side by side, the statement month by month, who introduced the deal and the contact's email and phone", async () => {
    const routed = await routedLead({ ...completeUkLead(), significant_persons: [person(), person({ full_name: "Charles Babbage", date_of_birth: "1971-12-26", ownership_percent: 40 })] });
    const session = await liveSession(routed.a.id);
    await uploadDocument(routed.partner.live.key, routed.lead.id, "bank_statements", bytes(signedAmountCsv), "apr-may.csv");
    const page = await portal("GET", `/deals/${routed.refA}`, { session });
    expect(page.status).toBe(200);
    const directors = page.text.match(/<section[^>]*id="directors"[\s\S]*?<\/section>/)?.[0] ?? "";
    expect(directors).toMatch(/<th[^>]*>Date of birth \(application\)<\/th>/);
    expect(directors).toMatch(/Ada Lovelace[\s\S]*?9 Mar 1984[\s\S]*?60%/);
    expect(directors).toMatch(/Charles Babbage[\s\S]*?26 Dec 1971[\s\S]*?40%/);
    expect(page.text).not.toContain("Significant persons</th>");
    const statements = page.text.match(/<section[^>]*id="statements"[\s\S]*?<\/section>/)?.[0] ?? "";
    const months = [...statements.matchAll(/<tr data-month="(\d{4}-\d{2})"/g)].map((m) => m[1]);
    expect(months.length).toBeGreaterThan(0);
    expect(statements).toContain("Money in");
    expect(statements).toContain("Money out");
    const partnerName = (await env.DB.prepare("select name from organisations where id = ?").bind(routed.partner.organisation.id).first<{ name: string }>())!.name;
    expect(page.text).toContain(`Introduced by</th><td dir="auto">${partnerName.replace(/'/g, "&#39;")}</td>`);
    expect(page.text).toContain('Contact email</th><td dir="auto">ada@example.com</td>');
    expect(page.text).toContain('Contact phone</th><td dir="auto">+44 20 7946 0000</td>');
    expect(developerWords(page.text)).toEqual([]);
  });

  it("a test deal's directors come from the register alone, each with a row of its own", async () => {
    const lender = await lenderWithKeys();
    const ref = await testDeal(lender.sandbox.key);
    const api = await call("GET", `/v1/deals/${ref}`, { key: lender.sandbox.key });
    const page = await portal("GET", `/deals/${ref}`, { session: await signedInMember(lender.organisation.id, "member") });
    const directors = page.text.match(/<section[^>]*id="directors"[\s\S]*?<\/section>/)?.[0] ?? "";
    const named = (api.body.market.registry.directors ?? []).filter((d: { name: string | null }) => d.name);
    expect(named.length).toBeGreaterThan(0);
    expect((directors.match(/<tr>|<tr /g) ?? []).length - 1).toBe((api.body.market.registry.directors ?? []).length);
    expect(page.text).toContain("No introducer: a test deal");
  });

  it("issue 45 item 6: the payout account in full for an admin only, once per showing, each audited; masked for a member; 404 for others", async () => {
    const lender = await lenderWithKeys();
    const key = lender.sandbox.key;
    const ref = await testDeal(key);
    await makeOffer(key, ref, firmOffer());
    for (const event of ["offer.accepted", "deal.account_submitted"]) await call("POST", `/v1/test/deals/${ref}/simulate`, { key, body: { event } });
    const member = await signedInMember(lender.organisation.id, "member");
    const memberPage = await portal("GET", `/deals/${ref}`, { session: member });
    expect(memberPage.text).toMatch(/data-completion="account"><bdi>[^<]*••••5678<\/bdi> \(masked\)/);
    expect(memberPage.text).not.toContain(`action="/portal/deals/${ref}/payout-account"`);
    expect(memberPage.text).not.toContain("12345678");
    expect((await portal("POST", `/deals/${ref}/payout-account`, { session: member, form: {} })).status).toBe(404);
    expect(await auditOf(member)).toEqual([]);

    const admin = await signedInMember(lender.organisation.id, "admin");
    const adminPage = await portal("GET", `/deals/${ref}`, { session: admin });
    expect(adminPage.text).toContain(`action="/portal/deals/${ref}/payout-account"`);
    expect(adminPage.text).not.toContain("12345678");
    const shown = await portal("POST", `/deals/${ref}/payout-account`, { session: admin, form: {} });
    expect(shown.status).toBe(200);
    expect(shown.headers.get("Cache-Control")).toContain("no-store");
    expect([...shown.text.matchAll(/<td dir="auto" data-account-line="[^"]*">([^<]*)<\/td>/g)].map((m) => m[1]).slice(1)).toEqual(["040004", "12345678"]);
    expect(await auditOf(admin)).toEqual([{ action: "payout_account.revealed", target: ref, environment: "sandbox" }]);
    // Every showing is its own audited request; the deal page itself never holds the account.
    await portal("POST", `/deals/${ref}/payout-account`, { session: admin, form: {} });
    expect((await auditOf(admin)).map((a) => a.action)).toEqual(["payout_account.revealed", "payout_account.revealed"]);
    // Stored sealed, never as the number.
    const row = (await inData.prepare("select account_sealed, account_summary from deals where ref = ?").bind(ref).first<{ account_sealed: string; account_summary: string }>())!;
    expect(row.account_sealed).toMatch(/^v1\./);
    expect(row.account_sealed).not.toContain("12345678");
    // The API still says the summary only.
    expect(JSON.stringify((await call("GET", `/v1/deals/${ref}`, { key })).body)).not.toContain("12345678");

    const strangerAdmin = await signedInMember((await lenderWithKeys()).organisation.id, "admin");
    expect((await portal("POST", `/deals/${ref}/payout-account`, { session: strangerAdmin, form: {} })).status).toBe(404);
    expect(await auditOf(strangerAdmin)).toEqual([]);
    const partnerAdmin = await signedInMember((await createOrganisation("partner")).id, "admin");
    expect((await portal("POST", `/deals/${ref}/payout-account`, { session: partnerAdmin, form: {} })).status).toBe(404);

    // A deal whose business has not given its account yet: the page says so and what to do, not a bare "Not found".
    const notGiven = await portal("POST", `/deals/${await testDeal(key)}/payout-account`, { session: admin, form: {} });
    expect(notGiven.status).toBe(404);
    expect(notGiven.text).toContain('<p id="account-not-kept">');
    expect(notGiven.text).toContain("The business has not given its payout account yet.");
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
