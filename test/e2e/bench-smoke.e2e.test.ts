import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// `npm run bench` at tiny sizes (BENCH_SMOKE=1): the harness seeds, drives every row, reads the
// round trips and writes its report. Only the shape is checked: timing is never asserted.
describe("npm run bench (smoke)", () => {
  it("prints the table and targets and writes the same report as JSON", () => {
    const dir = mkdtempSync(join(tmpdir(), "rfs-bench-smoke-"));
    const out = join(dir, "report.json");
    try {
      const run = spawnSync("node", ["bench/run.mjs"], { env: { ...process.env, BENCH_SMOKE: "1", BENCH_OUT: out }, encoding: "utf8", timeout: 600_000 });
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      const report = JSON.parse(readFileSync(out, "utf8"));

      const names = report.rows.map((r: { name: string }) => r.name);
      expect(names[0]).toBe("GET /health");
      for (const row of ["enums", "prequalification", "first page", "page 5", "/partner/v1/leads/{id}", "POST /partner/v1/leads", "submit", "GET /v1/deals", "GET /v1/deals/{ref}"]) {
        expect(names.some((n: string) => n.includes(row)), row).toBe(true);
      }
      for (const row of report.rows) {
        for (const c of ["c1", "c10"]) {
          expect(row[c]).toEqual(expect.objectContaining({ rps: expect.any(Number), p50_ms: expect.any(Number), p99_ms: expect.any(Number), ratio: expect.any(Number) }));
          expect(row[c].runs).toHaveLength(3);
          expect(row[c].non2xx + row[c].errors).toEqual(expect.any(Number));
        }
        // Each row's probe is answered 2xx: a broken row would be measuring its error path.
        expect(row.round_trips).toEqual(expect.objectContaining({ d1: expect.any(Number), do: expect.any(Number) }));
        expect(row.round_trips.status, row.name).toBeGreaterThanOrEqual(200);
        expect(row.round_trips.status, row.name).toBeLessThan(300);
      }
      expect(report.rows.find((r: { kind: string }) => r.kind === "floor").c10.ratio).toBe(1);
      expect(report.webhook).toEqual(expect.objectContaining({ events: 5, lost: expect.any(Number), duplicates: expect.any(Number) }));
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
