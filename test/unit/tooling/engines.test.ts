import { readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";

// `npm ci` on the Node the project states must print no engine warning and no list of skipped install
// scripts (issue 24, item 16): every locked package accepts our lowest Node, and every package with an
// install script has a decision in `allowScripts` (docs/testing.md, "Node and dependencies").
const root = JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string }; allowScripts: Record<string, boolean> };
const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as {
  packages: Record<string, { engines?: { node?: string } | string[]; hasInstallScript?: boolean; version?: string }>;
};
const packageName = (path: string) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);

describe("the dependencies agree with the Node the project states", () => {
  const lowest = semver.minVersion(root.engines.node)!.version;

  it("states a Node range whose lowest version is a Node 20 release", () => {
    expect(semver.major(lowest)).toBe(20);
  });

  it("locks no package that refuses the lowest Node the project states", () => {
    const refusing = Object.entries(lock.packages)
      .filter(([path, meta]) => path !== "" && meta.engines && !Array.isArray(meta.engines) && meta.engines.node)
      .filter(([, meta]) => !semver.satisfies(lowest, (meta.engines as { node: string }).node))
      .map(([path, meta]) => `${packageName(path)}@${meta.version} wants node ${(meta.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });

  it("decides, in allowScripts, for every locked package with an install script", () => {
    const withScripts = Object.entries(lock.packages).filter(([path, meta]) => path.includes("node_modules/") && meta.hasInstallScript);
    expect(withScripts.length).toBeGreaterThan(0);
    const undecided = [...new Set(withScripts.map(([path]) => packageName(path)))].filter((name) => !(name in root.allowScripts));
    expect(undecided).toEqual([]);
  });
});
