import { describe, expect, it } from "vitest";
import { monthsSince, resolveFigures } from "../../src/domain/figures";
import { notActiveStatus, registerFigures } from "../../src/domain/registers/facts";
import { marketFor } from "../../src/domain/reference/markets";
import { call } from "../helpers/api";
import { partnerWithKeys } from "../helpers/seed";
import { createLead } from "../leads/helpers";
import { twoLenderPanel } from "../routing/helpers";
import { bytes, splitColumnsCsv } from "../documents/fixtures";
import { uploadDocument } from "../documents/helpers";
import { settle, ukLead } from "./lookups-support";

const tibFromRegister = () => monthsSince("2019-03-14", new Date());

describe("precedence: statements, then the register, then the applicant", () => {
  it("takes months trading from the incorporation date and turnover from the filed accounts, the applicant's bands beside", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, ukLead("00000001"));
    expect(lead.trading).toMatchObject({ tib_months_basis: "band_midpoint", annual_turnover: 420_000, annual_turnover_basis: "applicant" });

    await settle(lead.id);
    const read = (await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key })).body;
    expect(read.trading).toEqual({
      monthly_revenue: 37_500,
      monthly_revenue_band: "25k_50k",
      monthly_revenue_basis: "band_midpoint",
      annual_turnover: 1_250_000,
      annual_turnover_basis: "filed_accounts",
      time_in_business_band: "24m_60m",
      tib_months: tibFromRegister(),
      tib_months_basis: "register",
    });
    expect(read.uk.annual_turnover).toBe(1_250_000);
  });

  it("a register that gave no facts leaves the applicant's figures in place", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, ukLead("00000009"));
    await settle(lead.id);
    const read = (await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key })).body;
    expect(read.business.registry).toMatchObject({ status: "unavailable", reason: "timeout" });
    expect(read.trading).toMatchObject({ tib_months_basis: "band_midpoint", annual_turnover_basis: "applicant" });
  });

  it("statements outrank the register, the register outranks the applicant, figure by figure", () => {
    const market = marketFor("GB");
    const register = { tib_months: 80, annual_turnover: 1_250_000 };
    const applicant = { annual_turnover: 420_000, tib_months: 30, time_in_business_band: "24m_60m", monthly_revenue: 20_000 };
    const both = resolveFigures({ applicant, register, statements: { monthly_revenue: 31_000, annual_turnover: 900_000 } }, market);
    expect([both.annual_turnover, both.annual_turnover_basis, both.monthly_revenue_basis]).toEqual([900_000, "statements", "statements"]);
    const registerOnly = resolveFigures({ applicant, register, statements: null }, market);
    expect([registerOnly.annual_turnover_basis, registerOnly.tib_months, registerOnly.tib_months_basis, registerOnly.time_in_business_band]).toEqual(["filed_accounts", 80, "register", "24m_60m"]);
    expect(registerOnly.monthly_revenue_basis).toBe("applicant");
  });

  it("reads figures only from a register that answered, and status words as the registers write them", () => {
    expect(registerFigures({ source: "official_register", status: "unavailable", reason: "not_found" }, new Date())).toBeNull();
    expect(registerFigures(null, new Date())).toBeNull();
    const facts = (company_status: string | null) => ({ source: "official_register", status: "available", company_status }) as never;
    expect(["dissolved", "liquidation", "In Administration", "converted-closed", "struck off"].map((s) => notActiveStatus(facts(s)))).toEqual([
      "dissolved",
      "liquidation",
      "In Administration",
      "converted-closed",
      "struck off",
    ]);
    expect([notActiveStatus(facts("active")), notActiveStatus(facts(null)), notActiveStatus(facts("voluntary-arrangement"))]).toEqual([null, null, null]);
  });
});

describe("the matcher reads the register at submit", () => {
  it("a dissolved company gets no options: out_of_scope, with the reason on the timeline", async () => {
    await twoLenderPanel();
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, ukLead("00000002"));
    await settle(lead.id);
    const submit = await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: sandbox.key });
    expect(submit.body).toMatchObject({ state: "out_of_scope", matched_options: 0, options: [] });

    const read = (await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key })).body;
    const reason = { code: "company_not_active", detail: expect.stringContaining("dissolved") };
    expect(read.out_of_scope_reasons).toEqual([reason]);
    expect(read.timeline.at(-1)).toEqual({ event: "lead.out_of_scope", occurred_at: read.submitted_at, reasons: [reason] });
  });

  it("an active company is matched on the register's months trading, even where the applicant's band falls short", async () => {
    await twoLenderPanel();
    const { sandbox } = await partnerWithKeys();
    // The panel wants 12 months trading; the applicant said under 6.
    const body = ukLead("00000001", null, { trading: { monthly_revenue_band: "25k_50k", time_in_business_band: "under_6m" } });
    const short = await createLead(sandbox.key, { ...body, business: { ...body.business, company_number: "00000099" } });
    await settle(short.id);
    expect((await call("POST", `/partner/v1/leads/${short.id}/submit`, { key: sandbox.key })).body.state).toBe("out_of_scope");

    const registered = await createLead(sandbox.key, body);
    await settle(registered.id);
    const submit = await call("POST", `/partner/v1/leads/${registered.id}/submit`, { key: sandbox.key });
    expect(submit.body).toMatchObject({ state: "offers_available", matched_options: 2 });
  });

  it.each(["00000003", "00000004", "00000005"])("%s is active (insolvency history, overdue accounts, a disqualified director are facts for the lender, not refusals)", async (number) => {
    await twoLenderPanel();
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, ukLead(number));
    await settle(lead.id);
    const read = (await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key })).body;
    expect(read.business.registry.company_status).toBe("active");
    const submit = await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: sandbox.key });
    expect(submit.body.matched_options).toBeGreaterThan(0);
  });

  it("a lead submitted before the register answered is matched on the applicant's figures", async () => {
    await twoLenderPanel();
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, ukLead("00000002"));
    const submit = await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: sandbox.key });
    expect(submit.body.matched_options).toBeGreaterThan(0);
  });

  it("parsed statements outrank the applicant at submit as they do in the lead's view", async () => {
    await twoLenderPanel();
    const { sandbox } = await partnerWithKeys();
    // The applicant's band (25k-50k a month) fits the panel's 5,000 minimum; the statements (about 3,333 a month) do not.
    const lead = await createLead(sandbox.key, ukLead("00000001"));
    await settle(lead.id);
    await uploadDocument(sandbox.key, lead.id, "bank_statements", bytes(splitColumnsCsv), "statement.csv");
    const read = (await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key })).body;
    expect(read.trading).toMatchObject({ monthly_revenue_basis: "statements", monthly_revenue_band: "25k_50k", tib_months_basis: "register" });
    const submit = await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: sandbox.key });
    expect(submit.body.state).toBe("out_of_scope");
    const after = (await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key })).body;
    expect(after.timeline.at(-1).reasons.map((r: any) => r.code)).toContain("revenue_below_minimum");
  });
});
