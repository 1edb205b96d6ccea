import { describe, expect, it } from "vitest";
import { evaluateTargets } from "../../bench/lib/report.mjs";

// The bench's goal checks (bench/lib/report.mjs) on made-up reports: each target can miss, and a
// figure that is not a number (NaN from an empty run) misses rather than holds.
const conc = (rps: number, mean = 1000 / rps, p50 = 1) => ({ rps, mean_from_rps_ms: mean, p50_ms: p50, ratio: 0 });
function report({ authRps = 900, authD1 = 0, webhookP50 = 40, lost = 0 } = {}) {
  const rows = [
    { name: "GET /health", kind: "floor", ratio_target: null, c1: conc(1000), c10: conc(2000), round_trips: { d1: 0, do: 0 } },
    { name: "GET /partner/v1/enums/revenue-bands", kind: "auth", ratio_target: 0.6, c1: conc(authRps), c10: conc(authRps * 2), round_trips: { d1: authD1, do: 1 } },
  ];
  for (const row of rows) for (const c of ["c1", "c10"] as const) row[c].ratio = row[c].rps / rows[0][c].rps;
  return { rows, webhook: { p50_ms: webhookP50, p99_ms: 200, delivered: 5 - lost, events: 5, lost, duplicates: 0 } };
}
const holds = (r: ReturnType<typeof report>) => Object.fromEntries(evaluateTargets(r).map((t) => [t.target.split(":")[0] + (t.target.includes("req/s") ? " ratio" : ""), t.holds]));

describe("the bench's goal checks", () => {
  it("hold on a report that meets every target", () => {
    expect(evaluateTargets(report()).every((t) => t.holds)).toBe(true);
  });

  it("miss a ratio, a round-trip count, the auth overhead, the webhook latency and a lost event", () => {
    expect(holds(report({ authRps: 100 }))["GET /partner/v1/enums/revenue-bands ratio"]).toBe(false);
    expect(holds(report({ authRps: 100 }))["auth + limiter adds ≤ 1 ms over /health at c=1 (mean per request; p50 difference beside it)"]).toBe(false);
    expect(holds(report({ authD1: 1 }))["GET /partner/v1/enums/revenue-bands"]).toBe(false);
    expect(holds(report({ webhookP50: 900 }))["webhook state change → receiver 2xx p50 ≤ 250 ms"]).toBe(false);
    expect(holds(report({ lost: 1 }))["webhook"]).toBe(false);
  });

  it("miss, not hold, when a figure is NaN", () => {
    expect(evaluateTargets(report({ authRps: Number.NaN })).filter((t) => !t.holds).length).toBeGreaterThanOrEqual(2);
  });
});
