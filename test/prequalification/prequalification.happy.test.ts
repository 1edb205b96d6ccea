import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { MARKETS } from "../../src/domain/reference/markets";
import { call } from "../helpers/api";
import { loadDemoPanel, panelOf } from "../helpers/panel";
import { createOrganisation, issueKey, partnerWithKeys } from "../helpers/seed";

const prequalify = async (body: unknown) => {
  const { sandbox } = await partnerWithKeys();
  return call("POST", "/partner/v1/prequalification", { key: sandbox.key, body });
};
const codes = (res: { body: any }) => res.body.reasons.map((r: any) => r.code);
const SHOP = "https://shop.example";
const browserKey = async () => issueKey((await createOrganisation("partner")).id, "sandbox", "publishable", [SHOP]);

/** Every table's schema and every row, in a stable order: the whole database. */
async function databaseSnapshot() {
  const { results: tables } = await env.DB.prepare(
    "SELECT name, sql FROM sqlite_master WHERE type IN ('table', 'index') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name",
  ).all<{ name: string; sql: string | null }>();
  const rows: Record<string, string[]> = {};
  for (const { name } of tables) {
    const isTable = (await env.DB.prepare("SELECT type FROM sqlite_master WHERE name = ?").bind(name).first<{ type: string }>())!.type === "table";
    if (!isTable) continue;
    const { results } = await env.DB.prepare(`SELECT * FROM "${name}"`).all();
    rows[name] = results.map((r) => JSON.stringify(r)).sort();
  }
  return { schema: tables, rows };
}

const retailer = {
  country: "GB",
  business: { industry: "retail" },
  funding: { purpose: "working_capital", amount: 50_000 },
  trading: { monthly_revenue: 30_000, tib_months: 36 },
};

describe("POST /partner/v1/prequalification", () => {
  // Storage is shared by the tests of a file, so the panel is loaded once.
  beforeAll(async () => {
    await loadDemoPanel();
  });

  it("answers structurally: families, counts, panel limits, never a provider", async () => {
    const res = await prequalify(retailer);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.body).toMatchObject({
      country: "UK",
      currency: "GBP",
      eligible: true,
      decision: "options_available",
      matched_options: 3,
      product_families: [
        { product_family: "business_loan", label: "Business loan", options: 1 },
        { product_family: "line_of_credit", label: "Line of credit", options: 1 },
        { product_family: "revenue_based_finance", label: "Revenue-based finance", options: 1 },
      ],
      indicative_amount: { min: 5_000, max: 500_000, currency: "GBP", basis: "panel_limits" },
      figures: { amount: 50_000, amount_basis: "reported", monthly_revenue: 30_000, monthly_revenue_basis: "reported", tib_months: 36, tib_months_basis: "reported" },
      supported_countries: MARKETS.map((m) => m.code),
    });
    expect(codes(res)).toEqual(["amount_below_minimum", "industry_excluded", "purpose_not_served"]);
    expect(res.body.disclaimer).toMatch(/indicative/i);
    expect(res.text).not.toMatch(/Demo Lender|org_|gb-term-loan/);
  });

  it.each([
    ["an eligible business", retailer, true],
    ["an ineligible business", { ...retailer, funding: { purpose: "working_capital", amount: 1 } }, false],
    ["a refused country", { ...retailer, country: "IT" }, false],
  ])("answers every field of the spec's table with its type, for %s", async (_label, body, eligible) => {
    const res = await prequalify(body);
    expect(res.status).toBe(200);
    const b = res.body;
    expect(Object.keys(b).sort()).toEqual(
      ["country", "currency", "eligible", "decision", "matched_options", "product_families", "indicative_amount", "reasons", "unlocks", "figures", "supported_countries", "disclaimer"].sort(),
    );
    expect(typeof b.country).toBe("string");
    expect(typeof b.currency).toBe("string");
    expect(b.eligible).toBe(eligible);
    expect(typeof b.decision).toBe("string");
    expect(Number.isInteger(b.matched_options)).toBe(true);
    expect(Array.isArray(b.product_families)).toBe(true);
    for (const f of b.product_families) expect(f).toEqual({ product_family: expect.any(String), label: expect.any(String), options: expect.any(Number) });
    expect(b.product_families.reduce((n: number, f: any) => n + f.options, 0)).toBe(b.matched_options);
    if (eligible) {
      expect(b.decision).toBe("options_available");
      expect(b.indicative_amount).toEqual({ min: expect.any(Number), max: expect.any(Number), currency: b.currency, basis: "panel_limits" });
      expect(b.indicative_amount.min).toBeLessThanOrEqual(b.indicative_amount.max);
    } else {
      expect(b.indicative_amount).toBeNull();
      expect(b.reasons.length).toBeGreaterThan(0);
    }
    for (const r of b.reasons) expect(r).toEqual({ code: expect.any(String), detail: expect.any(String) });
    for (const u of b.unlocks) expect(u).toEqual({ field: expect.any(String), needed: expect.anything(), options_added: expect.any(Number) });
    expect(b.supported_countries.every((c: unknown) => typeof c === "string")).toBe(true);
    expect(b.disclaimer.length).toBeGreaterThan(0);
  });

  it.each(["GB", "UK", "gbr", "United Kingdom"])("accepts the country as %s", async (country) => {
    const res = await prequalify({ ...retailer, country });
    expect(res.status).toBe(200);
    expect(res.body.country).toBe("UK");
  });

  it.each([
    ["DE", "DE"],
    ["DEU", "DE"],
    ["Germany", "DE"],
    ["IT", "IT"],
    ["italy", "IT"],
  ])("answers %s 200 out_of_scope with country_refused", async (country, code) => {
    const res = await prequalify({ ...retailer, country });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      country: code,
      currency: "EUR",
      eligible: false,
      decision: "out_of_scope",
      matched_options: 0,
      product_families: [],
      indicative_amount: null,
    });
    expect(codes(res)).toEqual(["country_refused"]);
  });

  it("uses an amount band's midpoint and says so", async () => {
    const res = await prequalify({ ...retailer, funding: { purpose: "working_capital", amount_band: "25k_50k" } });
    expect(res.body.figures).toMatchObject({ amount: 37_500, amount_basis: "band_midpoint" });
    expect(res.body.eligible).toBe(true);
  });

  it("takes a twelfth of annual turnover only when monthly revenue is absent", async () => {
    const annual = await prequalify({ ...retailer, trading: { annual_turnover: 60_000, monthly_revenue_band: "over_250k", tib_months: 36 } });
    expect(annual.body.figures).toMatchObject({ monthly_revenue: 5_000, monthly_revenue_basis: "annual_turnover" });
    // 5,000 a month is under every GB revenue minimum
    expect(annual.body).toMatchObject({ eligible: false, decision: "no_options" });
    expect(codes(annual)).toContain("revenue_below_minimum");
    const monthly = await prequalify({ ...retailer, trading: { monthly_revenue: 30_000, annual_turnover: 60_000, tib_months: 36 } });
    expect(monthly.body.figures).toMatchObject({ monthly_revenue: 30_000, monthly_revenue_basis: "reported" });
  });

  it("uses bands for revenue and months trading when no figure is given", async () => {
    const res = await prequalify({ ...retailer, trading: { monthly_revenue_band: "25k_50k", time_in_business_band: "24m_60m" } });
    expect(res.body.figures).toMatchObject({
      monthly_revenue: 37_500,
      monthly_revenue_basis: "band_midpoint",
      tib_months: 42,
      tib_months_basis: "band_midpoint",
    });
    expect(res.body.matched_options).toBe(3);
  });

  it("never invents unknown trading figures: it says what it could not check", async () => {
    const res = await prequalify({ country: "GB", funding: { purpose: "equipment", amount: 50_000 } });
    expect(res.body).toMatchObject({ eligible: true, figures: { monthly_revenue: null, monthly_revenue_basis: null, tib_months: null } });
    expect(codes(res)).toEqual(expect.arrayContaining(["monthly_revenue_unknown", "time_in_business_unknown", "industry_unknown"]));
  });

  it("holds the US to credit-score minimums", async () => {
    const base = { country: "US", funding: { purpose: "working_capital", amount: 50_000 }, trading: { monthly_revenue: 40_000, tib_months: 36 } };
    const weak = await prequalify({ ...base, trading: { ...base.trading, credit_score_band: "below_500" } });
    expect(weak.body).toMatchObject({ country: "US", currency: "USD", eligible: false, decision: "no_options" });
    expect(codes(weak)).toEqual(["credit_score_below_minimum", "purpose_not_served", "industry_unknown"]);
    const strong = await prequalify({ ...base, trading: { ...base.trading, credit_score_band: "740_plus" } });
    expect(strong.body.product_families.map((f: any) => f.product_family)).toEqual(["business_loan", "line_of_credit", "merchant_cash_advance"]);
  });

  it("answers every open or integrated market with options in its own currency", async () => {
    for (const market of MARKETS) {
      const res = await prequalify({
        country: market.country,
        funding: { purpose: "working_capital", amount: 50_000 },
        trading: { monthly_revenue: 40_000, tib_months: 36, ...(market.block === "us" || market.block === "ca" ? { credit_score_band: "740_plus" } : {}) },
      });
      expect(res.body, market.country).toMatchObject({ country: market.code, currency: market.currency, eligible: true });
      expect(res.body.indicative_amount.currency).toBe(market.currency);
    }
  });

  it("writes nothing to the database: every table's every row is unchanged", async () => {
    const { sandbox } = await partnerWithKeys();
    const publishable = await browserKey();
    await call("POST", "/partner/v1/prequalification", { key: sandbox.key, body: retailer });
    const before = await databaseSnapshot();
    expect(before.rows.panel_products.length).toBeGreaterThan(0);
    expect(before.rows.api_keys.length).toBeGreaterThan(0);
    const bodies = [
      retailer,
      { ...retailer, country: "DE" },
      { ...retailer, country: "US" },
      { ...retailer, funding: { purpose: "working_capital", amount: 1 } },
      { country: "FR", funding: { purpose: "equipment", amount_band: "50k_100k" }, trading: { annual_turnover: 600_000, time_in_business_band: "24m_60m" } },
    ];
    for (const body of bodies) {
      expect((await call("POST", "/partner/v1/prequalification", { key: sandbox.key, body })).status).toBe(200);
      expect((await call("POST", "/partner/v1/prequalification", { key: publishable.key, body, headers: { Origin: SHOP } })).status).toBe(200);
    }
    // An Idempotency-Key is not a reason to store anything: prequalification keeps no record.
    const keyed = await call("POST", "/partner/v1/prequalification", { key: sandbox.key, body: retailer, headers: { "Idempotency-Key": "pq-1" } });
    expect(keyed.status).toBe(200);
    // A refused request writes nothing either.
    expect((await call("POST", "/partner/v1/prequalification", { key: sandbox.key, body: { ...retailer, country: "Atlantis" } })).status).toBe(400);
    const after = await databaseSnapshot();
    expect(after.schema).toEqual(before.schema);
    expect(after.rows).toEqual(before.rows);
  });
});

describe("POST /partner/v1/prequalification without a panel", () => {
  it("answers a market with no product out_of_scope with market_not_served", async () => {
    await panelOf();
    const res = await prequalify(retailer);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ country: "UK", currency: "GBP", eligible: false, decision: "out_of_scope", matched_options: 0, indicative_amount: null });
    expect(codes(res)).toEqual(["market_not_served"]);
  });
});
