import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, inject } from "vitest";

// `npm run bench` at tiny sizes (BENCH_SMOKE=1): the harness seeds, drives every row, reads the
// round trips and writes its report. Only the shape is checked: timing is never asserted.
describe("npm run bench (smoke)", () => {
  it("prints the table and targets and writes the same report as JSON", () => {
    const dir = mkdtempSync(join(tmpdir(), "rfs-bench-smoke-"));
    const out = join(dir, "report.json");
    try {
      // The e2e suite's migrated state, copied by the bench: its own migration would be one more wrangler process.
      const env = { ...process.env, BENCH_SMOKE: "1", BENCH_OUT: out, BENCH_MIGRATED_STATE: inject("migratedState") };
      const run = spawnSync("node", ["bench/run.mjs"], { env, encoding: "utf8", timeout: 600_000 });
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      const report = JSON.parse(readFileSync(out, "utf8"));

      // More than one round, so a run that overwrote the previous round's instead of adding to it fails the length check below.
      expect(report.method.rounds).toBeGreaterThanOrEqual(2);
      const names = report.rows.map((r: { name: string }) => r.name);
      expect(names[0]).toBe("GET /health");
      for (const row of ["enums", "prequalification", "first page", "page 5", "/partner/v1/leads/{id}", "POST /partner/v1/leads", "submit", "GET /v1/deals", "GET /v1/deals/{ref}"]) {
        expect(names.some((n: string) => n.includes(row)), row).toBe(true);
      }
      // Every figure is a finite number: expect.any(Number) would let a NaN (an empty run's sum) through.
      const finite = (value: unknown, what: string) => expect(Number.isFinite(value), `${what} is ${value}`).toBe(true);
      for (const row of report.rows) {
        for (const c of ["c1", "c10"]) {
          for (const figure of ["rps", "p50_ms", "p99_ms", "ratio"]) finite(row[c][figure], `${row.name} ${c} ${figure}`);
          expect(row[c].rps, `${row.name} ${c} answered nothing`).toBeGreaterThan(0);
          // One run per round (bench/run.mjs CONFIG.rounds, 2 at smoke size), every one kept.
          expect(row[c].runs).toHaveLength(report.method.rounds);
          finite(row[c].non2xx + row[c].errors, `${row.name} ${c} non2xx + errors`);
        }
        // Each row's probe is answered 2xx: a broken row would be measuring its error path.
        finite(row.round_trips.d1, `${row.name} D1 round trips`);
        finite(row.round_trips.do, `${row.name} DO round trips`);
        expect(row.round_trips.status, row.name).toBeGreaterThanOrEqual(200);
        expect(row.round_trips.status, row.name).toBeLessThan(300);
      }
      expect(report.rows.find((r: { kind: string }) => r.kind === "floor").c10.ratio).toBe(1);
      expect(report.webhook).toEqual(expect.objectContaining({ events: 3 }));
      finite(report.webhook.lost, "webhook lost");
      finite(report.webhook.duplicates, "webhook duplicates");
      expect(report.targets.length).toBeGreaterThan(10);
      for (const target of report.targets) expect(typeof target.holds).toBe("boolean");

      expect(run.stdout).toContain("req/s");
      expect(run.stdout).toContain("targets:");
      expect(run.stdout).toMatch(/(HOLDS|MISSED) +GET \/partner\/v1\/enums/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
