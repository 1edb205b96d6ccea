import { env } from "cloudflare:workers";
import { invalidatePanelCache } from "../../src/services/panel/panel-cache";
import { call } from "../helpers/api";
import { putProducts } from "../helpers/panel";
import { createOrganisation, issueKey } from "../helpers/seed";
import { createLead } from "../leads/helpers";
import { inData } from "../helpers/data-db";

export const gbProduct = (id: string, overrides: Record<string, unknown> = {}) => ({
  id,
  product_family: "business_loan",
  label: "Term loan 12-36 months",
  markets: ["GB"],
  min_amount: 10_000,
  max_amount: 250_000,
  min_monthly_revenue: 5_000,
  min_months_trading: 12,
  min_credit_score_band: null,
  excluded_industries: ["gambling"],
  purposes: [],
  pricing: { annual_rate_pct: { min: 8, max: 16 }, term_months: { min: 12, max: 36 }, fee_pct: 2 },
  ...overrides,
});

/** Two lenders whose GB products fit a 40k working-capital loan (one of them with two), one that does not. */
export async function twoLenderPanel() {
  // Storage is shared by the tests of a file; each test starts from its own panel.
  await env.DB.prepare("delete from panel_products").run();
  invalidatePanelCache();
  const a = await createOrganisation("lender", "Lender A");
  const b = await createOrganisation("lender", "Lender B");
  const c = await createOrganisation("lender", "Lender C");
  await putProducts(a.id, [gbProduct("a-loan"), gbProduct("a-line", { product_family: "line_of_credit", label: "Revolving line of credit" })]);
  await putProducts(b.id, [gbProduct("b-loan", { label: "Term loan 6-24 months" })]);
  await putProducts(c.id, [gbProduct("c-big", { min_amount: 500_000, max_amount: 2_000_000 })]);
  const keys = {
    a: { live: (await issueKey(a.id, "live")).key, sandbox: (await issueKey(a.id, "sandbox")).key },
    b: { live: (await issueKey(b.id, "live")).key, sandbox: (await issueKey(b.id, "sandbox")).key },
    c: { live: (await issueKey(c.id, "live")).key, sandbox: (await issueKey(c.id, "sandbox")).key },
  };
  return { a, b, c, keys };
}

export async function submittedLead(key: string, body?: unknown) {
  const lead = await createLead(key, body);
  const res = await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key });
  if (res.status !== 200) throw new Error(`submit: ${res.status} ${res.text}`);
  return { lead, submit: res.body };
}

export async function eventsFor(subjectId: string) {
  const { results } = await inData.prepare("select organisation_id, api, event, subject_type, subject_id, detail from events where subject_id = ? order by created_at, rowid").bind(subjectId).all<any>();
  return results.map((r) => ({ ...r, detail: JSON.parse(r.detail) }));
}

export async function eventsNamed(event: string, organisationId: string) {
  const { results } = await inData.prepare("select subject_id, detail from events where event = ? and organisation_id = ?").bind(event, organisationId).all<any>();
  return results;
}
