import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { expectProblem, partnerWithKeys } from "../helpers/seed";

type Body = Record<string, any>;
const valid: Body = {
  country: "GB",
  business: { industry: "retail" },
  funding: { purpose: "working_capital", amount: 50_000 },
  trading: { monthly_revenue: 30_000, tib_months: 36 },
};
const funding = (f: Body) => ({ ...valid, funding: f });
const trading = (t: Body) => ({ ...valid, trading: { ...valid.trading, ...t } });

describe("POST /partner/v1/prequalification: bad input", () => {
  it.each<[string, Body, string]>([
    ["a missing country", { ...valid, country: undefined }, "country"],
    ["an unknown country", { ...valid, country: "Atlantis" }, "country"],
    ["a numeric country", { ...valid, country: 826 }, "country"],
    ["missing funding", { ...valid, funding: undefined }, "funding"],
    ["a missing purpose", funding({ amount: 50_000 }), "funding.purpose"],
    ["an unknown purpose", funding({ purpose: "holiday", amount: 50_000 }), "funding.purpose"],
    ["amount and band both absent", funding({ purpose: "working_capital" }), "funding.amount"],
    ["a negative amount", funding({ purpose: "working_capital", amount: -1 }), "funding.amount"],
    ["a string amount", funding({ purpose: "working_capital", amount: "50000" }), "funding.amount"],
    ["an unknown amount band", funding({ purpose: "working_capital", amount_band: "huge" }), "funding.amount_band"],
    ["an unknown funding key", funding({ purpose: "working_capital", amount: 1, currency: "GBP" }), "funding.currency"],
    ["an unknown industry", { ...valid, business: { industry: "crypto" } }, "business.industry"],
    ["an unknown business key", { ...valid, business: { industry: "retail", name: "Acme" } }, "business.name"],
    ["a negative monthly revenue", trading({ monthly_revenue: -10 }), "trading.monthly_revenue"],
    ["a negative annual turnover", trading({ annual_turnover: -10 }), "trading.annual_turnover"],
    ["negative months trading", trading({ tib_months: -1 }), "trading.tib_months"],
    ["fractional months trading", trading({ tib_months: 1.5 }), "trading.tib_months"],
    ["an unknown revenue band", trading({ monthly_revenue_band: "lots" }), "trading.monthly_revenue_band"],
    ["an unknown time-in-business band", trading({ time_in_business_band: "ages" }), "trading.time_in_business_band"],
    ["an unknown credit band", trading({ credit_score_band: "800" }), "trading.credit_score_band"],
    ["an unknown trading key", trading({ annual_revenue: 1 }), "trading.annual_revenue"],
    ["an unknown top-level key", { ...valid, contact: { email: "a@b.example" } }, "contact"],
  ])("refuses %s with 400 invalid_request naming the field", async (_label, body, field) => {
    const { sandbox } = await partnerWithKeys();
    const res = await call("POST", "/partner/v1/prequalification", { key: sandbox.key, body });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe(field);
  });

  it.each([
    ['"amount":50000', '"amount":1e999', "funding.amount"],
    ['"monthly_revenue":30000', '"monthly_revenue":-1e999', "trading.monthly_revenue"],
  ])("refuses a non-finite number (%s → %s)", async (from, to, field) => {
    const { sandbox } = await partnerWithKeys();
    const res = await call("POST", "/partner/v1/prequalification", {
      key: sandbox.key,
      rawBody: JSON.stringify(valid).replace(from, to),
      contentType: "application/json",
    });
    expectProblem(res, 400, "invalid_request");
    expect(res.body.error.field).toBe(field);
  });

  it.each([
    ["malformed JSON", "{nope"],
    ["a JSON array", "[]"],
  ])("refuses %s", async (_label, rawBody) => {
    const { sandbox } = await partnerWithKeys();
    expectProblem(await call("POST", "/partner/v1/prequalification", { key: sandbox.key, rawBody, contentType: "application/json" }), 400, "invalid_request");
  });

  it("answers GET with 405", async () => {
    const { sandbox } = await partnerWithKeys();
    expectProblem(await call("GET", "/partner/v1/prequalification", { key: sandbox.key }), 405, "method_not_allowed");
  });
});
