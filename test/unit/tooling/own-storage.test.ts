import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { OWN_STORAGE, ownStorageFiles } from "../../harness/own-storage.mjs";

// The list vitest.config.mts hands to test/helpers/storage-reset.ts: the files emptied storage is reset for.
describe("the files that get storage of their own (test/harness/own-storage.mts)", () => {
  it("reads ** as any number of directories and * as part of one name, nothing more", () => {
    const root = mkdtempSync(join(tmpdir(), "rfs-own-storage-"));
    try {
      const files = ["test/faults/d1-writes.test.ts", "test/faults/deeper/down/r2.test.ts", "test/faults/sweep.ts", "test/faultsx/a.test.ts", "test/x/test/faults/a.test.ts", "test/faults/a.test.tsx", "test/faults/a/b.testXts"];
      const prequalification = ["test/prequalification/prequalification.happy.test.ts", "test/prequalification/prequalificationXhappy.test.ts", "test/prequalification/prequalification.error.test.ts"];
      for (const file of [...files, ...prequalification]) {
        mkdirSync(join(root, dirname(file)), { recursive: true });
        writeFileSync(join(root, file), "");
      }
      expect(ownStorageFiles(root, ["test/faults/**/*.test.ts"])).toEqual([join(root, "test/faults/d1-writes.test.ts"), join(root, "test/faults/deeper/down/r2.test.ts")]);
      expect(ownStorageFiles(root, ["test/prequalification/prequalification.happy.test.ts"])).toEqual([join(root, "test/prequalification/prequalification.happy.test.ts")]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
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
