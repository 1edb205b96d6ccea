import { describe, expect, it } from "vitest";
import { currentPanel, invalidatePanelCache, PANEL_CACHE_TTL_MS, panelCacheStats } from "../../src/services/panel/panel-cache";
import { testDeps } from "../helpers/deps";
import { faultyEnv } from "../helpers/faults";
import type { Bindings } from "../../src/lib/env";
import { call } from "../helpers/api";
import { panelOf, putProducts, termLoan } from "../helpers/panel";
import { createOrganisation, partnerWithKeys } from "../helpers/seed";
import { completeUkLead, createLead } from "../leads/helpers";

const body = { country: "GB", funding: { purpose: "working_capital", amount: 50_000 }, trading: { monthly_revenue: 30_000, tib_months: 36 } };

describe("the panel cache", () => {
  it("reads D1 once, then answers prequalifications from the isolate", async () => {
    const { sandbox } = await partnerWithKeys();
    const lender = await createOrganisation("lender");
    await panelOf(lender.id);
    await putProducts(lender.id, [termLoan]);
    const loadsBefore = panelCacheStats.loads;
    const first = await call("POST", "/partner/v1/prequalification", { key: sandbox.key, body });
    expect(first.body.matched_options).toBe(1);
    expect(panelCacheStats.loads).toBe(loadsBefore + 1);
    const second = await call("POST", "/partner/v1/prequalification", { key: sandbox.key, body });
    expect(second.body).toEqual(first.body);
    expect(panelCacheStats.loads).toBe(loadsBefore + 1);
  });

  it("serves submit's routing from the same cached panel", async () => {
    const { live } = await partnerWithKeys();
    const lender = await createOrganisation("lender");
    await panelOf(lender.id);
    await putProducts(lender.id, [{ ...termLoan, min_monthly_revenue: 0, min_months_trading: 0 }]);
    await call("POST", "/partner/v1/prequalification", { key: live.key, body });
    const loads = panelCacheStats.loads;
    const lead = await createLead(live.key, { ...completeUkLead(), funding: { amount: 50_000, purpose: "working_capital" } });
    const submit = await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: live.key });
    expect(submit.body.state).toBe("matched");
    expect(panelCacheStats.loads).toBe(loads);
  });

  it("forgets the panel when the operator replaces a list", async () => {
    const { sandbox } = await partnerWithKeys();
    const lender = await createOrganisation("lender");
    await panelOf(lender.id);
    await putProducts(lender.id, [termLoan]);
    const before = (await call("POST", "/partner/v1/prequalification", { key: sandbox.key, body })).body.matched_options;
    await putProducts(lender.id, [termLoan, { ...termLoan, id: "another", product_family: "line_of_credit" }]);
    const after = await call("POST", "/partner/v1/prequalification", { key: sandbox.key, body });
    expect(after.body.matched_options).toBe(before + 1);
  });

  it("keeps a loaded panel for its lifetime (by the clock of Deps) and reloads after it", async () => {
    const lender = await createOrganisation("lender");
    await panelOf(lender.id);
    await putProducts(lender.id, [termLoan]);
    const at = (ms: number) => currentPanel(testDeps({ now: new Date(ms) }));
    const t0 = Date.UTC(2030, 0, 1);
    const loads = panelCacheStats.loads;
    expect((await at(t0)).map((p) => p.lenderOrganisationId)).toEqual([lender.id]);
    await at(t0 + PANEL_CACHE_TTL_MS - 1);
    expect(panelCacheStats.loads).toBe(loads + 1);
    await at(t0 + PANEL_CACHE_TTL_MS);
    expect(panelCacheStats.loads).toBe(loads + 2);
    invalidatePanelCache();
    await at(t0 + PANEL_CACHE_TTL_MS + 1);
    expect(panelCacheStats.loads).toBe(loads + 3);
  });

  it("shares one read between concurrent callers and does not keep a failed one", async () => {
    const lender = await createOrganisation("lender");
    await panelOf(lender.id);
    await putProducts(lender.id, [termLoan]);
    invalidatePanelCache();
    // The first D1 statement of these Deps fails (test/helpers/faults.ts); the next goes through to the real D1.
    const deps = testDeps({ env: faultyEnv({ d1: 1 }).env as Partial<Bindings> });
    const loads = panelCacheStats.loads;
    const results = await Promise.allSettled([currentPanel(deps), currentPanel(deps)]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(panelCacheStats.loads).toBe(loads + 1);
    expect((await currentPanel(deps)).map((p) => p.lenderOrganisationId)).toEqual([lender.id]);
    expect(panelCacheStats.loads).toBe(loads + 2);
  });
});
