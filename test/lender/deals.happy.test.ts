import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { eventsFor, gbProduct } from "../routing/helpers";
import { putProducts } from "../helpers/panel";
import { portal } from "../helpers/portal";
import { liveSession } from "../portal/lender/support";
import { completeUkLead, createLead } from "../leads/helpers";
import { firmOffer, indicativeOffer, makeOffer, pdfBytes, routedLead } from "./helpers";

describe("lender deals", () => {
  it("lists and reads the deals routed to the lender, ref case-insensitive, with the market object and deprecated duplicates", async () => {
    const { keys, refA, lead } = await routedLead();
    const list = await call("GET", "/v1/deals", { key: keys.a.live });
    expect(list.status).toBe(200);
    expect(list.body.next_cursor).toBeNull();
    expect(list.body.deals).toEqual([
      {
        ref: refA,
        business: { name: "Widgets Ltd", company_number: lead.business.company_number },
        contact: { first_name: "Ada", last_name: "Lovelace" },
        amount: 40_000,
        currency: "GBP",
        product: "business_loan",
        market: "UK",
        status: "submitted",
        lender_status: "new",
        test: false,
        statements_available: false,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
    const res = await call("GET", `/v1/deals/${refA.toLowerCase()}`, { key: keys.a.live });
    expect(res.status).toBe(200);
    expect(res.headers.get("Deprecation")).toBe("@1788220800");
    expect(res.headers.get("Link")).toMatch(/rel="deprecation"/);
    const deal = res.body;
    expect(deal).toMatchObject({
      ref: refA,
      environment: "live",
      status: "submitted",
      lender_status: "new",
      channel: { name: "Acme Books", domain: "acmebooks.example" },
      contact: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", phone: "+44 20 7946 0000" },
      request: { amount: 40_000, amount_basis: "applicant", amount_band: null, currency: "GBP", purpose: "working_capital", product_family: "business_loan" },
      consent: { obtained: true, soft_credit_search: true },
      offers: [],
      documents: [],
      statements: { has_statements: false, uploaded_at: null, account_kind: null },
    });
    expect(deal.market).toMatchObject({
      country: "UK",
      currency: "GBP",
      monthly_revenue: 37_500,
      monthly_revenue_basis: "band_midpoint",
      annual_turnover: 420_000,
      annual_turnover_basis: "applicant",
      registry: null,
      identifiers: { vat_number: null, lei: null },
      company_register_number: lead.business.company_number,
      entity_type: "private_limited_company",
      vat: { number: "GB123456789", valid: null },
    });
    expect(deal.monthly_revenue).toBe(deal.market.monthly_revenue);
    expect(deal.annual_turnover).toBe(deal.market.annual_turnover);
    expect(deal.market_block).toEqual(deal.market);
    expect(deal.market_region).toBeNull();
    expect(JSON.stringify(deal)).not.toContain(lead.id);
  });

  it("pages with a signed keyset cursor and filters on lender_status", async () => {
    const { keys } = await routedLead();
    for (let i = 0; i < 3; i++) expect((await call("POST", "/v1/test/deals", { key: keys.c.live })).status).toBe(201);
    const first = await call("GET", "/v1/deals?limit=2", { key: keys.c.live });
    expect(first.body.deals).toHaveLength(2);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await call("GET", `/v1/deals?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`, { key: keys.c.live });
    expect(second.body.deals).toHaveLength(1);
    expect(second.body.next_cursor).toBeNull();
    const refs = [...first.body.deals, ...second.body.deals].map((d: any) => d.ref);
    expect(new Set(refs).size).toBe(3);
    await call("POST", `/v1/deals/${refs[0]}/status`, { key: keys.c.live, body: { status: "in_review" } });
    const filtered = await call("GET", "/v1/deals?status=in_review", { key: keys.c.live });
    expect(filtered.body.deals.map((d: any) => d.ref)).toEqual([refs[0]]);
  });

  it("walks a deal new → in_review → offer_made → funded and funds the lead", async () => {
    const { keys, refA, partner, lead, a } = await routedLead();
    const review = await call("POST", `/v1/deals/${refA}/status`, { key: keys.a.live, body: { status: "in_review" } });
    expect(review.status).toBe(200);
    expect(review.body.lender_status).toBe("in_review");
    await makeOffer(keys.a.live, refA, firmOffer());
    const funded = await call("POST", `/v1/deals/${refA}/status`, { key: keys.a.live, body: { status: "funded", funded_amount: 40_000 } });
    expect(funded.status).toBe(200);
    expect(funded.body).toMatchObject({ lender_status: "funded", status: "funded", funded_amount: 40_000 });
    expect(funded.headers.get("Deprecation")).toBe("@1788220800");
    const read = await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key });
    expect(read.body.state).toBe("funded");
    expect(read.body.funding_outcome).toEqual({ funded_at: expect.any(String), funded_amount: 40_000 });
    const dealEvents = await eventsFor(refA);
    expect(dealEvents.map((e) => e.event)).toEqual(["deal.created", "deal.updated", "deal.updated", "deal.updated"]);
    expect(dealEvents.every((e) => e.organisation_id === a.id && e.api === "lender")).toBe(true);
    expect(dealEvents[3].detail).toEqual({ update: { status: "funded", reason: null, funded_amount: 40_000 } });
    const leadEvents = await eventsFor(lead.id);
    expect(leadEvents.map((e) => e.event)).toEqual(["lead.submitted", "lead.matched", "lead.offers_available", "lead.funded"]);
    expect(leadEvents[2]).toMatchObject({ api: "partner", organisation_id: partner.organisation.id, detail: { reference: lead.reference, state: "offers_available" } });
    expect(leadEvents[3].detail).toEqual({ reference: lead.reference, state: "funded", funding_outcome: { funded_at: expect.any(String), funded_amount: 40_000 } });
  });

  it("declines the lead only when every routed lender declined", async () => {
    const { keys, refA, refB, partner, lead } = await routedLead();
    const first = await call("POST", `/v1/deals/${refA}/status`, { key: keys.a.live, body: { status: "declined", reason: "Outside appetite" } });
    expect(first.body).toMatchObject({ lender_status: "declined", status_reason: "Outside appetite" });
    // The deprecated free text is read as the code `other`, its text the (unshared) detail.
    expect(first.body.decline_reasons).toEqual([{ code: "other", label: "Another reason", detail: "Outside appetite", shareable: false }]);
    expect((await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key })).body.state).toBe("matched");
    await call("POST", `/v1/deals/${refB}/status`, { key: keys.b.live, body: { status: "declined" } });
    expect((await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key })).body.state).toBe("declined");
    const leadEvents = await eventsFor(lead.id);
    expect(leadEvents.map((e) => e.event)).toEqual(["lead.submitted", "lead.matched", "lead.declined"]);
    expect(leadEvents[2].detail).toEqual({ reference: lead.reference, state: "declined", outcomes: expect.any(Array) });
    expect(leadEvents[2].detail.outcomes.map((o: any) => [o.outcome, o.reasons.map((r: any) => r.code)])).toEqual([
      ["declined", expect.any(Array)],
      ["declined", expect.any(Array)],
    ]);
    expect((await eventsFor(refA)).at(-1)!.detail).toEqual({
      update: { status: "declined", reason: "Outside appetite", funded_amount: null, reasons: [{ code: "other", label: "Another reason", detail: "Outside appetite", shareable: false }] },
    });
  });

  it("recomputes the lead's unlocks on the options still open after a lender declines (issue 41 item 3)", async () => {
    const { keys, refA, partner, lead, a, c } = await routedLead({ ...completeUkLead(), trading: { monthly_revenue: 35_000, tib_months: 24 } });
    // Lender A also has a product for businesses trading 36 months; lender C one for 48 months.
    await putProducts(a.id, [gbProduct("a-loan"), gbProduct("a-seasoned", { min_months_trading: 36 })]);
    await putProducts(c.id, [gbProduct("c-long", { min_months_trading: 48 })]);
    const unlocks = async () => (await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key })).body.unlocks;
    expect(await unlocks()).toEqual([{ field: "trading.tib_months", needed: 36, options_added: 1 }]);

    const res = await call("POST", `/v1/deals/${refA}/status`, { key: keys.a.live, body: { status: "declined", reasons: [{ code: "trading_history_too_short" }] } });
    expect(res.status).toBe(200);
    // A declined the business: its 36-month product is no longer open, so the nearest unlock is C's.
    expect(await unlocks()).toEqual([{ field: "trading.tib_months", needed: 48, options_added: 1 }]);
    // The portal's lead page says it in words: the months still to go, and how many options they add.
    const page = (await portal("GET", `/leads/${lead.id}`, { session: await liveSession(partner.organisation.id) })).text;
    expect(page).toContain("With 24 more months of trading (48 in all): 1 more option");
    expect(page).not.toContain("Lender C");
    const draft = await createLead(partner.live.key);
    expect(draft.unlocks).toBeNull();
  });

  it("declines with coded reasons: the deal and deal.updated carry them, and the deal list filters by them", async () => {
    const { keys, refA, refB } = await routedLead();
    const reasons = [
      { code: "trading_history_too_short", detail: "Needs 12 months of accounts", shareable: true },
      { code: "affordability", detail: "Internal scorecard 41" },
    ];
    const res = await call("POST", `/v1/deals/${refA}/status`, { key: keys.a.live, body: { status: "declined", reasons } });
    expect(res.status).toBe(200);
    const stored = [
      { code: "trading_history_too_short", label: "The business has not been trading long enough", detail: "Needs 12 months of accounts", shareable: true },
      { code: "affordability", label: "The repayments do not look affordable", detail: "Internal scorecard 41", shareable: false },
    ];
    expect(res.body).toMatchObject({ lender_status: "declined", status_reason: null, decline_reasons: stored });
    expect((await eventsFor(refA)).at(-1)!.detail).toEqual({ update: { status: "declined", reason: null, funded_amount: null, reasons: stored } });

    const byReason = async (query: string, key = keys.a.live) => (await call("GET", `/v1/deals?${query}`, { key })).body.deals.map((d: any) => d.ref);
    expect(await byReason("reasons=affordability")).toEqual([refA]);
    expect(await byReason("reasons=adverse_credit,trading_history_too_short")).toEqual([refA]);
    expect(await byReason("reasons=adverse_credit")).toEqual([]);
    // Lender B's deal was not declined: no reason filter finds it, the plain list does.
    expect(await byReason("reasons=affordability", keys.b.live)).toEqual([]);
    expect(await byReason("status=new", keys.b.live)).toEqual([refB]);
    const unknown = await call("GET", "/v1/deals?reasons=too_risky", { key: keys.a.live });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: "invalid_request", field: "query.reasons" });
  });

  it("supersedes an indicative offer with a firm one and shows the partner only the current offer", async () => {
    const { keys, refA, partner, lead } = await routedLead();
    const indicative = await makeOffer(keys.a.live, refA, indicativeOffer());
    expect(indicative).toMatchObject({ maturity: "indicative", status: "presented", superseded: false, currency: "GBP", amount: 35_000 });
    const partnerView = await call("GET", `/partner/v1/leads/${lead.id}/offers`, { key: partner.live.key });
    expect(partnerView.body).toMatchObject({ lead_id: lead.id, simulated: false });
    expect(partnerView.body.offers.map((o: any) => [o.id, o.state, o.label])).toEqual([[indicative.id, "presented", "Business loan"]]);
    const firm = await makeOffer(keys.a.live, refA, firmOffer());
    const list = await call("GET", `/v1/deals/${refA}/offers`, { key: keys.a.live });
    expect(list.body.offers).toHaveLength(2);
    expect(list.body.offers[0]).toMatchObject({ id: indicative.id, superseded: true, superseded_by: "firm", superseded_at: expect.any(String), status: "superseded" });
    expect(list.body.offers[1]).toMatchObject({ id: firm.id, superseded: false, status: "presented", maturity: "firm", notes: "Subject to final checks" });
    const after = await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key });
    expect(after.body.state).toBe("offers_available");
    expect(after.body.offers.map((o: any) => o.id)).toEqual([firm.id]);
    expect(JSON.stringify(after.body)).not.toMatch(/Lender [AB]/);
    expect((await eventsFor(lead.id)).filter((e) => e.event === "lead.offers_available")).toHaveLength(1);
    const deal = await call("GET", `/v1/deals/${refA}`, { key: keys.a.live });
    expect(deal.body.lender_status).toBe("offer_made");
    expect(deal.body.offers).toHaveLength(2);
  });

  it("sends and lists messages", async () => {
    const { keys, refA } = await routedLead();
    const sent = await call("POST", `/v1/deals/${refA}/messages`, { key: keys.a.live, body: { body: "Could you send the last 6 months of statements?" } });
    expect(sent.status).toBe(201);
    expect(sent.body.message).toMatchObject({ direction: "lender_to_borrower", body: "Could you send the last 6 months of statements?" });
    const list = await call("GET", `/v1/deals/${refA}/messages`, { key: keys.a.live });
    expect(list.body.messages).toEqual([sent.body.message]);
  });

  it("answers completion with nulls until the agreement is uploaded to R2", async () => {
    const { keys, refA } = await routedLead();
    const before = await call("GET", `/v1/deals/${refA}/completion`, { key: keys.a.live });
    expect(before.body).toEqual({
      completion: { account_submitted: false, account_submitted_at: null, account_summary: null, agreement_uploaded: false, agreement_uploaded_at: null, signed: false, signed_at: null, signature_verification: null },
    });
    const put = await call("PUT", `/v1/deals/${refA}/agreement`, { key: keys.a.live, rawBody: pdfBytes(), contentType: "application/pdf" });
    expect(put.status).toBe(200);
    expect(put.body.completion).toMatchObject({ agreement_uploaded: true, agreement_uploaded_at: expect.any(String), signed: false });
    const { env } = await import("cloudflare:workers");
    const row = await env.DB.prepare("select agreement_key from deals where ref = ?").bind(refA).first<{ agreement_key: string }>();
    expect(row!.agreement_key).toMatch(new RegExp(`^deals/live/${refA}/agreement-[A-Za-z0-9_-]+\\.pdf$`));
    const stored = await env.DOCUMENTS.get(row!.agreement_key);
    expect(await stored!.text()).toMatch(/^%PDF-/);
  });
});
