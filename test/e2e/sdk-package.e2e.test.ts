// The SDK as an integrator gets it: `npm pack` of sdk/, the tarball installed into a temporary
// project with no TypeScript, and a plain `node` ESM script (test/e2e/sdk-package/flow.mjs) run
// against wrangler dev: token, create, submit, offers, accept, verifyWebhook on a real delivery.
// The same script, copied as `.mts`, must type-check under `module: nodenext` and under
// `moduleResolution: bundler`; sdk/README.md's opening example runs as written. One project holds
// the installed tarball for every test (one `npm install`), and one compiler process checks it under
// both resolutions (test/e2e/sdk-package/typecheck.mjs says what it checks).
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, newPartner } from "./client";
import { panelLender } from "./panel";

const root = resolve(import.meta.dirname, "../..");
const work = mkdtempSync(join(tmpdir(), "rfs-sdk-package-"));
// Asynchronous children: a blocked event loop would leave this process's keep-alive connections to
// wrangler dev stale, and the next request on one would fail.
const run = promisify(execFile);
const npm = async (args: string[], cwd: string) =>
  (await run("npm", [...args, "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], { cwd, encoding: "utf8" })).stdout;
let tarball = "";

/** A project of its own: a package.json, the tarball, nothing from this repository's node_modules. */
async function project(name: string, extra: Record<string, unknown> = {}) {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, private: true, type: "module", ...extra }, null, 2));
  await npm(["install", tarball], dir);
  return dir;
}
/** The integrator's project every test uses (the tarball installed once in beforeAll). */
let consumer = "";

const runNode = async (dir: string, script: string, env: Record<string, string>) =>
  (await run(process.execPath, [script], { cwd: dir, encoding: "utf8", env: { PATH: process.env.PATH ?? "", ...env }, timeout: 60_000 })).stdout;

beforeAll(async () => {
  const packed = JSON.parse(await npm(["pack", "--json", "--pack-destination", work], join(root, "sdk")));
  tarball = join(work, packed[0].filename);
  consumer = await project("consumer");
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const RESOLUTIONS = {
  nodenext: { module: "nodenext", moduleResolution: "nodenext" },
  bundler: { module: "esnext", moduleResolution: "bundler" },
} as const;

/**
 * flow.mjs as flow.mts and the README's example as example.mts in the consumer project, with a
 * tsconfig.<resolution>.json each, checked by this repository's compiler in one process (both tests
 * read the one run): each tsconfig's diagnostics as tsc prints them. It resolves @rfs/sdk from the
 * project's node_modules.
 */
let typeCheckRun: Promise<Record<string, string[]>> | undefined;
function typeChecks() {
  typeCheckRun ??= (async () => {
    copyFileSync(join(root, "test/e2e/sdk-package/flow.mjs"), join(consumer, "flow.mts"));
    writeFileSync(join(consumer, "example.mts"), readmeExample());
    for (const [name, options] of Object.entries(RESOLUTIONS)) {
      writeFileSync(
        join(consumer, `tsconfig.${name}.json`),
        JSON.stringify({
          compilerOptions: {
            ...options, target: "es2022", lib: ["es2022"], strict: true, noEmit: true, skipLibCheck: false,
            // Node's own types from this repository (the temporary project installs only the tarball).
            types: ["node"], typeRoots: [join(root, "node_modules/@types")],
          },
          files: ["flow.mts", "example.mts"],
        }),
      );
    }
    const script = join(root, "test/e2e/sdk-package/typecheck.mjs");
    const configs = Object.keys(RESOLUTIONS).map((name) => `tsconfig.${name}.json`);
    const { stdout } = await run(process.execPath, [script, join(root, "node_modules/typescript"), ...configs], { cwd: consumer, encoding: "utf8" });
    return JSON.parse(stdout) as Record<string, string[]>;
  })();
  return typeCheckRun;
}

/** The first ```js block of sdk/README.md: the example it opens with. */
function readmeExample() {
  const example = /```js\n([\s\S]*?)```/.exec(readFileSync(join(root, "sdk/README.md"), "utf8"))?.[1];
  if (!example) throw new Error("sdk/README.md has no ```js example");
  return example;
}

/** A sandbox partner whose lead below matches a panel product, so submit presents simulated offers. */
async function sandboxKey() {
  await panelLender("tarball-loan");
  return (await newPartner()).sandbox.key;
}

describe("the packed SDK", () => {
  it("packs dist/ (ESM JavaScript and .d.ts), the README and package.json, and no TypeScript source", async () => {
    const listing = JSON.parse(await npm(["pack", "--dry-run", "--json", "--ignore-scripts"], join(root, "sdk")))[0];
    const files: string[] = listing.files.map((f: { path: string }) => f.path);
    expect(files).toContain("dist/index.js");
    expect(files).toContain("dist/index.d.ts");
    expect(files).toContain("README.md");
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
    expect(listing.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("runs a plain node ESM script from a project without TypeScript: token, create, submit, offers, accept, verifyWebhook", async () => {
    const dir = consumer;
    expect(existsSync(join(dir, "node_modules", "typescript"))).toBe(false);
    expect(readdirSync(join(dir, "node_modules", "@rfs", "sdk", "dist"))).toContain("index.js");
    copyFileSync(join(root, "test/e2e/sdk-package/flow.mjs"), join(dir, "flow.mjs"));
    const out = JSON.parse((await runNode(dir, "flow.mjs", { RFS_BASE_URL: baseUrl(), RFS_KEY: await sandboxKey() })).trim());
    expect(out).toMatchObject({ token: true, submitted: "offers_available", accepted: "accepted", event: "lead.offer_accepted" });
    expect(out.lead).toEqual(expect.any(String));
    expect(out.offers).toBeGreaterThan(0);
    expect(out.offer).toEqual(expect.any(String));
  });

  it("runs sdk/README.md's opening example as written", async () => {
    const dir = consumer;
    const example = readmeExample();
    expect(example.trim().split("\n").length).toBeLessThanOrEqual(10);
    writeFileSync(join(dir, "example.mjs"), example);
    const out = await runNode(dir, "example.mjs", { RFS_BASE_URL: baseUrl(), RFS_KEY: await sandboxKey() });
    expect(out).toMatch(/offers_available/);
  });

  for (const name of Object.keys(RESOLUTIONS) as (keyof typeof RESOLUTIONS)[]) {
    it(`type-checks the same script and the README's example as TypeScript under ${name} resolution`, async () => {
      const diagnostics = await typeChecks();
      expect(diagnostics[`tsconfig.${name}.json`]).toEqual([]);
    }, 120_000);
  }
});
