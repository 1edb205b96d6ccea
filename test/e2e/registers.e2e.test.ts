import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, http, newPartner } from "./client";
import { panelLender } from "./panel";

/** Whole months since `date` (YYYY-MM-DD), as the service counts them. */
function monthsSince(date: string, now = new Date()) {
  const [y, m, d] = date.split("-").map(Number);
  let months = (now.getUTCFullYear() - y) * 12 + (now.getUTCMonth() + 1 - m);
  if (now.getUTCDate() < d) months -= 1;
  return months;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let key: string;
const api = () => `${baseUrl()}/partner/v1`;

/** Creates a GB sandbox lead for `companyNumber` and polls it until the register's answer is stored (the queue consumer runs in wrangler dev). */
async function leadWithAnswer(companyNumber: string) {
  const created = await http("POST", `${api()}/leads`, {
    headers: { "X-API-Key": key },
    body: {
      country: "GB",
      business: { name: `Fixture ${companyNumber}`, company_number: companyNumber, entity_type: "private_limited_company", industry: "retail" },
      funding: { amount: 40_000, purpose: "working_capital", product_family: "business_loan" },
      trading: { monthly_revenue: 30_000, time_in_business_band: "24m_60m", annual_turnover: 360_000 },
    },
  });
  expect(created.status).toBe(201);
  expect(created.body.business.registry).toBeNull();
  for (let i = 0; i < 100; i++) {
    const read = await http("GET", `${api()}/leads/${created.body.id}`, { headers: { "X-API-Key": key } });
    if (read.body.business.registry !== null) return read.body;
    await sleep(250);
  }
  throw new Error(`no register answer stored for ${companyNumber}`);
}

async function submit(id: string) {
  const res = await http("POST", `${api()}/leads/${id}/submit`, { headers: { "X-API-Key": key } });
  expect(res.status).toBe(200);
  return (await http("GET", `${api()}/leads/${id}`, { headers: { "X-API-Key": key } })).body;
}

const registerBases = { tib_months: monthsSince("2019-03-14"), tib_months_basis: "register", annual_turnover: 1_250_000, annual_turnover_basis: "filed_accounts", time_in_business_band: "24m_60m" };
const applicantBases = { tib_months: 42, tib_months_basis: "band_midpoint", annual_turnover: 360_000, annual_turnover_basis: "applicant", time_in_business_band: "24m_60m" };

describe("GB sandbox register fixtures over HTTP", () => {
  beforeAll(async () => {
    await panelLender("e2e-register-loan");
    key = (await newPartner()).sandbox.key;
  });

  it("00000001: a complete active company; figures from the register; matched", async () => {
    const lead = await leadWithAnswer("00000001");
    expect(lead.business.registry).toMatchObject({
      source: "official_register", status: "available", registered_name: "SANDBOX TRADING LTD", incorporated_on: "2019-03-14",
      company_status: "active", sic_codes: ["47910"], psc_count: 1, charges_count: 0, has_insolvency_history: false,
      accounts: { overdue: false }, confirmation_statement: { overdue: false }, disqualified_directors_count: 0,
      filed_financials: { period_end: "2025-12-31", turnover: 1_250_000, basis: "filed_accounts" },
    });
    expect(lead.business.registry.directors).toHaveLength(2);
    expect(lead.trading).toMatchObject(registerBases);
    expect(lead.uk.annual_turnover).toBe(1_250_000);
    expect((await submit(lead.id)).state).toBe("offers_available");
  });

  it("00000002: dissolved; no options, out_of_scope with the reason on the timeline", async () => {
    const lead = await leadWithAnswer("00000002");
    expect(lead.business.registry).toMatchObject({ status: "available", company_status: "dissolved" });
    expect(lead.trading).toMatchObject(registerBases);
    const after = await submit(lead.id);
    expect(after).toMatchObject({ state: "out_of_scope", matched_options: 0 });
    expect(after.timeline.at(-1)).toMatchObject({ event: "lead.out_of_scope", reasons: [{ code: "company_not_active" }] });
  });

  it.each([
    ["00000003", { has_insolvency_history: true }],
    ["00000004", { accounts: { overdue: true } }],
    ["00000005", { disqualified_directors_count: 1 }],
  ])("%s: active, with the fact a lender weighs; matched", async (number, fact) => {
    const lead = await leadWithAnswer(number);
    expect(lead.business.registry).toMatchObject({ status: "available", company_status: "active", ...fact });
    expect(lead.trading).toMatchObject(registerBases);
    expect((await submit(lead.id)).state).toBe("offers_available");
  });

  it("00000005 names the disqualified director", async () => {
    const lead = await leadWithAnswer("00000005");
    expect(lead.business.registry.directors.filter((d: any) => d.disqualified)).toHaveLength(1);
  });

  it.each([
    ["00000009", "timeout"],
    ["12345678", "not_found"],
  ])("%s: the register gives no facts (%s); the applicant's figures stand; matched", async (number, reason) => {
    const lead = await leadWithAnswer(number);
    // Any registry object with a reason, not_found included, is exactly {source, status, reason} (decisions.md).
    expect(lead.business.registry).toEqual({ source: "official_register", status: "unavailable", reason });
    expect(lead.trading).toMatchObject(applicantBases);
    expect((await submit(lead.id)).state).toBe("offers_available");
  });

  it("a changed number shows nothing until the new company's answer is stored", async () => {
    const lead = await leadWithAnswer("00000001");
    const patched = await http("PATCH", `${api()}/leads/${lead.id}`, { headers: { "X-API-Key": key }, body: { business: { company_number: "00000002" } } });
    expect(patched.status).toBe(200);
    expect(patched.body.business.registry).toBeNull();
    for (let i = 0; i < 100; i++) {
      const read = await http("GET", `${api()}/leads/${lead.id}`, { headers: { "X-API-Key": key } });
      if (read.body.business.registry !== null) {
        expect(read.body.business.registry.company_status).toBe("dissolved");
        return;
      }
      await sleep(250);
    }
    throw new Error("no answer for the new number");
  });
});
