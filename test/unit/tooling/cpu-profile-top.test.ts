import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// test/harness/cpu-profile-top.mjs sums workerd-profile.mjs's chunks (docs/testing.md, "Profiling a workerd runtime").
// Two made-up chunks with known samples: its sums are what the profiles hold.
const dir = mkdtempSync(join(tmpdir(), "cpu-profile-top-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0, columnNumber: 0, scriptId: "0" });
/** A profile whose samples fall `counts[id]` times on node `id`, one per millisecond. */
function profile(nodes: { id: number; callFrame: ReturnType<typeof frame>; children?: number[] }[], counts: Record<number, number>) {
  const samples = Object.entries(counts).flatMap(([id, n]) => Array.from({ length: n }, () => Number(id)));
  return { nodes, startTime: 0, endTime: samples.length * 1000, samples, timeDeltas: samples.map(() => 1000) };
}

const user = profile(
  [
    { id: 1, callFrame: frame("(root)", ""), children: [2, 4] },
    { id: 2, callFrame: frame("outer", `file://${process.cwd()}/src/lib/a.ts`), children: [3] },
    { id: 3, callFrame: frame("inner", `${process.cwd()}/node_modules/drizzle-orm/sql/sql.js`) },
    { id: 4, callFrame: frame("(idle)", "") },
  ],
  { 2: 100, 3: 200, 4: 300 },
);
const d1 = profile(
  [
    { id: 1, callFrame: frame("(root)", ""), children: [2] },
    { id: 2, callFrame: frame("#query", "database.worker.js") },
  ],
  { 2: 50 },
);
writeFileSync(join(dir, "core:user:runner-0000.cpuprofile"), JSON.stringify(user));
writeFileSync(join(dir, "d1:db-0000.cpuprofile"), JSON.stringify(d1));
const files = [join(dir, "core:user:runner-0000.cpuprofile"), join(dir, "d1:db-0000.cpuprofile")];
const run = (...args: string[]) => execFileSync(process.execPath, ["test/harness/cpu-profile-top.mjs", ...args], { encoding: "utf8" });

describe("cpu-profile-top", () => {
  it("sums self time by worker, area and function, idle apart", () => {
    const out = run(...files, "--inclusive", "outer");
    expect(out).toContain("total sampled: 0.3 s busy (+ 0.3 s idle, left out) in 2 profile(s)");
    expect(out).toMatch(/0\.30 s\s+85\.7 %\s+outer\n/);
    expect(out).toMatch(/0\.30 s\s+85\.7 %\s+core:user:runner\n/);
    expect(out).toMatch(/0\.05 s\s+14\.3 %\s+d1:db\n/);
    expect(out).toMatch(/0\.20 s\s+57\.1 %\s+package: drizzle-orm\n/);
    expect(out).toMatch(/0\.10 s\s+28\.6 %\s+app: src\/lib\/\n/);
    expect(out).toMatch(/0\.10 s\s+28\.6 %\s+outer {2}src\/lib\/a\.ts:1\n/);
    expect(out).not.toContain("(idle)  :");
  });

  it("keeps only the workers --only names", () => {
    const out = run(...files, "--only", "d1:db");
    expect(out).toContain("total sampled: 0.1 s busy (+ 0.0 s idle, left out) in 1 profile(s)");
    expect(out).toMatch(/0\.05 s\s+100\.0 %\s+#query {2}database\.worker\.js:1\n/);
    expect(out).not.toContain("drizzle");
  });
});
