import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OWN_STORAGE, globPattern, ownStorageFiles } from "../../harness/own-storage.mjs";

// The list vitest.config.mts hands to test/helpers/storage-reset.ts: the files emptied storage is reset for.
describe("the files that get storage of their own (test/harness/own-storage.mts)", () => {
  it("reads ** as any number of directories and * as part of one name, nothing more", () => {
    const faults = globPattern("test/faults/**/*.test.ts");
    expect(["test/faults/d1-writes.test.ts", "test/faults/deeper/down/r2.test.ts"].filter((p) => faults.test(p))).toHaveLength(2);
    expect(["test/faults/sweep.ts", "test/faultsx/a.test.ts", "test/x/test/faults/a.test.ts", "test/faults/a.test.tsx", "test/faults/a/b.testXts"].filter((p) => faults.test(p))).toEqual([]);
    const one = globPattern("test/prequalification/prequalification.happy.test.ts");
    expect(one.test("test/prequalification/prequalification.happy.test.ts")).toBe(true);
    expect(one.test("test/prequalification/prequalificationXhappy.test.ts")).toBe(false);
    expect(one.test("test/prequalification/prequalification.error.test.ts")).toBe(false);
  });

  it("lists every fault sweep and prequalification.happy, as absolute paths, and no other file", () => {
    const root = process.cwd();
    const faults = readdirSync(join(root, "test/faults")).filter((n) => n.endsWith(".test.ts"));
    expect(faults.length).toBeGreaterThanOrEqual(6);
    expect(OWN_STORAGE).toEqual(["test/faults/**/*.test.ts", "test/prequalification/prequalification.happy.test.ts"]);
    expect(ownStorageFiles(root)).toEqual(
      [...faults.map((n) => join(root, "test/faults", n)), join(root, "test/prequalification/prequalification.happy.test.ts")].sort(),
    );
  });
});
