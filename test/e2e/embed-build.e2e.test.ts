import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

describe("the embeddable widget's build", () => {
  it("is committed as a fresh build of src/web/embed/browser (npm run build:embed)", () => {
    const run = spawnSync(process.execPath, ["scripts/build-embed.mjs", "--check"], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});
