// docs/deploy.md states the bundle figures bundle-budget.json holds, never figures of its own.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { budget, budgetFigures } from "../../scripts/lib/bundle-size.mjs";

describe("docs/deploy.md's bundle figures", () => {
  it("are the block bundle-budget.json gives (npm run build:check -- --record writes both)", () => {
    const b = budget();
    expect(b.measured, "bundle-budget.json records a measurement").toMatchObject({ date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), bytes: expect.any(Number), gzip_bytes: expect.any(Number) });
    expect(b.measured.gzip_bytes).toBeLessThanOrEqual(b.gzip_bytes);
    const docs = readFileSync("docs/deploy.md", "utf8");
    expect(docs).toContain(budgetFigures(b));
    // No other size in KiB or MiB in the section: the only figures are the generated ones.
    const section = docs.slice(docs.indexOf("## Bundle budget"), docs.indexOf("\n## ", docs.indexOf("## Bundle budget") + 1));
    const outside = section.replace(budgetFigures(b), "");
    expect(outside.match(/\d+(\.\d+)? (KiB|kB)/g) ?? []).toEqual([]);
  });
});
