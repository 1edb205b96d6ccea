import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { expectProblem } from "../helpers/seed";
import { firmOffer, makeOffer, pdfBytes, routedLead } from "./helpers";

describe("lender API bad input", () => {
  it.each([
    ["a negative amount", { amount: -1 }, "amount"],
    ["a zero amount", { amount: 0 }, "amount"],
    ["a non-number amount", { amount: "40000" }, "amount"],
    ["an unknown maturity", { maturity: "binding" }, "maturity"],
    ["an expiry in the past", { expires_at: "2020-01-01T00:00:00Z" }, "expires_at"],
    ["both rates", { factor_rate: 1.2 }, "annual_rate_pct"],
    ["negative fees", { fees: -5 }, "fees"],
    ["a fractional term", { term_months: 12.5 }, "term_months"],
    ["an unknown key", { lender_name: "x" }, "lender_name"],
  ])("refuses an offer with %s (400 naming the field)", async (_, change, field) => {
    const { keys, refA } = await routedLead();
    const res = await call("POST", `/v1/deals/${refA}/offers`, { key: keys.a.live, body: { ...firmOffer(), ...change } });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe(field);
  });

  it("refuses non-finite amounts sent as raw JSON", async () => {
    const { keys, refA } = await routedLead();
    const body = JSON.stringify(firmOffer()).replace('"amount":40000', '"amount":1e400');
    const res = await call("POST", `/v1/deals/${refA}/offers`, { key: keys.a.live, rawBody: body, contentType: "application/json" });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe("amount");
  });

  it("refuses indicative terms replacing firm ones", async () => {
    const { keys, refA } = await routedLead();
    await makeOffer(keys.a.live, refA, firmOffer());
    expectProblem(await call("POST", `/v1/deals/${refA}/offers`, { key: keys.a.live, body: firmOffer({ maturity: "indicative" }) }), 409, "invalid_transition");
  });

  it("refuses status moves that make no sense", async () => {
    const { keys, refA } = await routedLead();
    const post = (body: unknown) => call("POST", `/v1/deals/${refA}/status`, { key: keys.a.live, body });
    expectProblem(await post({ status: "funded", funded_amount: 40_000 }), 409, "invalid_transition");
    expectProblem(await post({ status: "offer_made" }), 400, "invalid_request");
    expectProblem(await post({ status: "new" }), 400, "invalid_request");
    expect((await post({ status: "in_review" })).status).toBe(200);
    expectProblem(await post({ status: "in_review" }), 409, "invalid_transition");
    await makeOffer(keys.a.live, refA, firmOffer());
    const missing = await post({ status: "funded" });
    expectProblem(missing, 400, "invalid_request");
    expect(missing.body.error.field).toBe("funded_amount");
    for (const amount of [0, -10]) {
      const bad = await post({ status: "funded", funded_amount: amount });
      expectProblem(bad, 400, "invalid_request");
      expect(bad.body.error.field).toBe("funded_amount");
    }
    expectProblem(await post({ status: "in_review", funded_amount: 5 }), 409, "invalid_transition");
    expect((await post({ status: "declined" })).status).toBe(200);
    expectProblem(await post({ status: "funded", funded_amount: 40_000 }), 409, "invalid_transition");
    expectProblem(await post({ status: "declined" }), 409, "invalid_transition");
    expectProblem(await call("POST", `/v1/deals/${refA}/offers`, { key: keys.a.live, body: firmOffer() }), 409, "invalid_transition");
  });

  it("refuses decline reasons it cannot read: an unknown code 422 naming its place, nothing written; malformed lists 400", async () => {
    const { keys, refA } = await routedLead();
    const post = (body: unknown) => call("POST", `/v1/deals/${refA}/status`, { key: keys.a.live, body });
    const unknown = await post({ status: "declined", reasons: [{ code: "too_risky" }] });
    expectProblem(unknown, 422, "unknown_code");
    expect(unknown.body.error.field).toBe("reasons.0.code");
    const second = await post({ status: "declined", reasons: [{ code: "affordability" }, { code: "Lender A says no" }] });
    expectProblem(second, 422, "unknown_code");
    expect(second.body.error.field).toBe("reasons.1.code");
    for (const [body, field] of [
      [{ status: "declined", reasons: [] }, "reasons"],
      [{ status: "in_review", reasons: [{ code: "affordability" }] }, "reasons"],
      [{ status: "declined", reasons: [{ code: "affordability" }], reason: "both" }, "reason"],
      [{ status: "declined", reasons: [{ code: "affordability", note: "x" }] }, "reasons.0.note"],
      [{ status: "declined", reasons: [{ code: "affordability", detail: "x".repeat(501) }] }, "reasons.0.detail"],
    ] as const) {
      const bad = await post(body);
      expectProblem(bad, 400, "invalid_request");
      expect(bad.body.error.field).toBe(field);
    }
    const deal = await call("GET", `/v1/deals/${refA}`, { key: keys.a.live });
    expect(deal.body).toMatchObject({ lender_status: "new", decline_reasons: [] });
  });

  it("refuses a non-finite funded_amount sent as raw JSON", async () => {
    const { keys, refA } = await routedLead();
    await makeOffer(keys.a.live, refA, firmOffer());
    const res = await call("POST", `/v1/deals/${refA}/status`, { key: keys.a.live, rawBody: '{"status":"funded","funded_amount":1e400}', contentType: "application/json" });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe("funded_amount");
  });

  it("refuses a funding day in the future, before the deal, or with another status, naming funded_on; a past day becomes the lead's funded_at", async () => {
    const { keys, refA, lead, partner } = await routedLead();
    await makeOffer(keys.a.live, refA, firmOffer());
    const future = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    for (const [body, status] of [
      [{ status: "funded", funded_amount: 40_000, funded_on: future }, 400],
      [{ status: "funded", funded_amount: 40_000, funded_on: "2020-01-01" }, 400],
      [{ status: "funded", funded_amount: 40_000, funded_on: "2026-02-30" }, 400],
      [{ status: "in_review", funded_on: "2026-01-01" }, 400],
    ] as const) {
      const res = await call("POST", `/v1/deals/${refA}/status`, { key: keys.a.live, body });
      expectProblem(res, status, "invalid_request");
      expect(JSON.stringify(res.body)).toContain("funded_on");
    }
    const today = new Date().toISOString().slice(0, 10);
    expect((await call("POST", `/v1/deals/${refA}/status`, { key: keys.a.live, body: { status: "funded", funded_amount: 40_000, funded_on: today } })).status).toBe(200);
    expect((await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key })).body.funding_outcome).toEqual({ funded_at: `${today}T00:00:00.000Z`, funded_amount: 40_000 });
  });

  it("refuses funding by a lender whose offer the partner did not accept (409), leaving the lead with the accepted one", async () => {
    const { keys, refA, refB, partner, lead } = await routedLead();
    const offerA = await makeOffer(keys.a.live, refA, firmOffer());
    await makeOffer(keys.b.live, refB, firmOffer({ amount: 38_000 }));
    expect((await call("POST", `/partner/v1/leads/${lead.id}/offers/${offerA.id}/acceptance`, { key: partner.live.key })).status).toBe(200);
    expectProblem(await call("POST", `/v1/deals/${refB}/status`, { key: keys.b.live, body: { status: "funded", funded_amount: 38_000 } }), 409, "invalid_transition");
    expect((await call("GET", `/v1/deals/${refB}`, { key: keys.b.live })).body.lender_status).toBe("offer_made");
    expect((await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key })).body).toMatchObject({ state: "offer_accepted", funding_outcome: null });
    const funded = await call("POST", `/v1/deals/${refA}/status`, { key: keys.a.live, body: { status: "funded", funded_amount: 40_000 } });
    expect(funded.body).toMatchObject({ status: "funded", lender_status: "funded", funded_amount: 40_000 });
    expect((await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key })).body.state).toBe("funded");
  });

  it("refuses a funded_amount above the accepted offer's amount (422 naming funded_amount), writing nothing", async () => {
    const { keys, refA, partner, lead } = await routedLead();
    const offerA = await makeOffer(keys.a.live, refA, firmOffer({ amount: 40_000 }));
    expect((await call("POST", `/partner/v1/leads/${lead.id}/offers/${offerA.id}/acceptance`, { key: partner.live.key })).status).toBe(200);
    for (const amount of [999_999_999, 40_000.01]) {
      const res = await call("POST", `/v1/deals/${refA}/status`, { key: keys.a.live, body: { status: "funded", funded_amount: amount } });
      expectProblem(res, 422, "amount_above_offer");
      expect(res.body.error.field).toBe("funded_amount");
      expect(res.body.error.message).toContain("40000");
    }
    expect((await call("GET", `/v1/deals/${refA}`, { key: keys.a.live })).body).toMatchObject({ lender_status: "offer_made", funded_amount: null });
    expect((await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key })).body).toMatchObject({ state: "offer_accepted", funding_outcome: null });
    const funded = await call("POST", `/v1/deals/${refA}/status`, { key: keys.a.live, body: { status: "funded", funded_amount: 39_500 } });
    expect(funded.body).toMatchObject({ status: "funded", lender_status: "funded", funded_amount: 39_500 });
  });

  it("caps funding without an accepted offer at the deal's current offer, not a replaced one", async () => {
    const { keys, refA } = await routedLead();
    await makeOffer(keys.a.live, refA, firmOffer({ amount: 40_000 }));
    await makeOffer(keys.a.live, refA, firmOffer({ amount: 30_000, total_repayment: 34_000 }));
    const post = (amount: number) => call("POST", `/v1/deals/${refA}/status`, { key: keys.a.live, body: { status: "funded", funded_amount: amount } });
    const over = await post(35_000);
    expectProblem(over, 422, "amount_above_offer");
    expect(over.body.error.field).toBe("funded_amount");
    expect((await post(30_000)).body).toMatchObject({ lender_status: "funded", funded_amount: 30_000 });
  });

  it("refuses empty and oversized messages", async () => {
    const { keys, refA } = await routedLead();
    for (const body of [{ body: "" }, { body: "   " }, { body: "x".repeat(5001) }, {}]) {
      const res = await call("POST", `/v1/deals/${refA}/messages`, { key: keys.a.live, body });
      expectProblem(res, 400, "invalid_request");
      expect(res.body.error.field).toBe("body");
    }
  });

  it("refuses agreements of another type (415), empty or not a PDF (400), too large (413)", async () => {
    const { keys, refA } = await routedLead();
    const put = (rawBody: BodyInit, contentType: string) => call("PUT", `/v1/deals/${refA}/agreement`, { key: keys.a.live, rawBody, contentType });
    expectProblem(await put(pdfBytes(), "application/json"), 415, "unsupported_media_type");
    expectProblem(await put(pdfBytes(), "image/png"), 415, "unsupported_media_type");
    expectProblem(await put(new Uint8Array(0), "application/pdf"), 400, "invalid_request");
    expectProblem(await put(new TextEncoder().encode("hello, not a pdf"), "application/pdf"), 400, "invalid_request");
    expectProblem(await put(new Uint8Array(20 * 1024 * 1024 + 1), "application/pdf"), 413, "payload_too_large");
  });

  it("refuses a cursor that was tampered with or issued for another filter", async () => {
    const { keys } = await routedLead();
    for (let i = 0; i < 2; i++) await call("POST", "/v1/test/deals", { key: keys.a.live });
    const page = await call("GET", "/v1/deals?limit=1", { key: keys.a.live });
    const cursor = page.body.next_cursor as string;
    expectProblem(await call("GET", `/v1/deals?limit=1&cursor=${cursor}x`, { key: keys.a.live }), 400, "invalid_request");
    expectProblem(await call("GET", `/v1/deals?limit=1&status=new&cursor=${cursor}`, { key: keys.a.live }), 400, "invalid_request");
    expectProblem(await call("GET", "/v1/deals?limit=0", { key: keys.a.live }), 400, "invalid_request");
    expectProblem(await call("GET", "/v1/deals?limit=101", { key: keys.a.live }), 400, "invalid_request");
    expectProblem(await call("GET", "/v1/deals?status=approved", { key: keys.a.live }), 400, "invalid_request");
  });
});
