import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { loadDemoPanel, panelOf } from "../helpers/panel";
import { partnerWithKeys } from "../helpers/seed";
import { completeUkLead } from "../leads/helpers";
import { submittedLead } from "./helpers";

type Facts = {
  country: string;
  industry: string;
  funding: Record<string, unknown>;
  trading: Record<string, unknown>;
};

/** The lead-creation body carrying the same facts (no product-family preference: prequalification has none). */
function leadBody(f: Facts) {
  const uk = completeUkLead();
  const business = f.country === "GB" ? { ...uk.business, industry: f.industry } : { name: uk.business.name, industry: f.industry };
  return { ...uk, country: f.country, business, funding: f.funding, trading: f.trading };
}

const prequalificationBody = (f: Facts) => ({ country: f.country, business: { industry: f.industry }, funding: f.funding, trading: f.trading });

const CASES: [string, Facts][] = [
  ["reported figures", { country: "GB", industry: "retail", funding: { purpose: "working_capital", amount: 50_000 }, trading: { monthly_revenue: 30_000, tib_months: 36 } }],
  [
    "bands only",
    { country: "GB", industry: "construction", funding: { purpose: "working_capital", amount_band: "25k_50k" }, trading: { monthly_revenue_band: "25k_50k", time_in_business_band: "24m_60m" } },
  ],
  [
    "annual turnover beating the revenue band",
    { country: "GB", industry: "manufacturing", funding: { purpose: "equipment", amount: 100_000 }, trading: { annual_turnover: 180_000, monthly_revenue_band: "over_250k", tib_months: 36 } },
  ],
  ["an excluded industry (no match)", { country: "GB", industry: "gambling", funding: { purpose: "working_capital", amount: 50_000 }, trading: { monthly_revenue: 30_000, tib_months: 36 } }],
  ["an amount under every minimum (no match)", { country: "GB", industry: "retail", funding: { purpose: "working_capital", amount: 1_000 }, trading: { monthly_revenue: 30_000, tib_months: 36 } }],
  [
    "a US business held to credit minimums",
    { country: "US", industry: "retail", funding: { purpose: "working_capital", amount: 50_000 }, trading: { monthly_revenue: 40_000, tib_months: 36, credit_score_band: "580_669" } },
  ],
  [
    "a euro-market business",
    { country: "FR", industry: "professional_services", funding: { purpose: "expansion", amount: 120_000 }, trading: { monthly_revenue: 45_000, time_in_business_band: "over_60m" } },
  ],
];

describe("prequalification and submit agree on the same facts", () => {
  beforeAll(async () => {
    // The demo lenders only: products other files of this runtime put would decide the outcomes too
    // (a GB product without the gambling exclusion makes "no match" a match).
    await panelOf(...Object.values(await loadDemoPanel()));
  });

  it.each(CASES)("%s", async (_label, facts) => {
    const { live } = await partnerWithKeys();
    const pre = await call("POST", "/partner/v1/prequalification", { key: live.key, body: prequalificationBody(facts) });
    expect(pre.status).toBe(200);
    const { lead, submit } = await submittedLead(live.key, leadBody(facts));

    expect(submit.matched_options).toBe(pre.body.matched_options);
    expect(submit.options).toEqual(pre.body.product_families);
    const read = await call("GET", `/partner/v1/leads/${lead.id}`, { key: live.key });
    // The Lead resource keeps the matcher's answer too.
    expect(read.body.matched_options).toBe(pre.body.matched_options);
    expect(read.body.options).toEqual(pre.body.product_families);
    if (pre.body.eligible) {
      expect(submit.state).toBe("matched");
      expect(read.body.out_of_scope_reasons).toEqual([]);
      // One deal per lender behind the matched options.
      const { results } = await env.DB.prepare("select count(distinct lender_organisation_id) as lenders, count(*) as deals from deals where lead_id = ?").bind(lead.id).all<any>();
      expect(results[0].deals).toBe(results[0].lenders);
      expect(results[0].deals).toBeGreaterThan(0);
    } else {
      expect(submit.state).toBe("out_of_scope");
      // The reasons kept on the lead are the prequalification's, word for word.
      expect(read.body.out_of_scope_reasons).toEqual(pre.body.reasons);
    }
  });

  it("covers both outcomes", async () => {
    const { live } = await partnerWithKeys();
    const outcomes = new Set<boolean>();
    for (const [, facts] of CASES) outcomes.add((await call("POST", "/partner/v1/prequalification", { key: live.key, body: prequalificationBody(facts) })).body.eligible);
    expect([...outcomes].sort()).toEqual([false, true]);
  });
});
