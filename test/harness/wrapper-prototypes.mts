/**
 * The upstream fix of cloudflare/workers-sdk#15092 (merged as #15106), applied to the
 * `@cloudflare/vitest-pool-workers` 0.15.1 this project pins for Node 20 (docs/testing.md, "Node and dependencies").
 *
 * The pool runs the Worker's entry points and Durable Objects through wrapper classes
 * (`createProxyPrototypeClass` in its `cloudflare:test-internal` module) whose constructor does
 * `Class.prototype = new Proxy(Class.prototype, …)`: every construction wraps the previous proxy in a new one.
 * The default entry point's wrapper is constructed once per `exports.default.fetch` call and a Durable
 * Object's once per instance, so after N requests every property read on a new instance runs N nested
 * `get` traps: a runtime slows down quadratically with the requests it has served (docs/testing.md,
 * "What made a shared runtime age"). The fix installs the proxy once per wrapper class, on the first
 * construction (workerd reads the plain prototype's methods when the module loads, so not earlier).
 *
 * The pool hands `cloudflare:test-internal` to workerd from its module fallback service, which reads the
 * file with `fs.readFileSync` in this (vitest's main) process; this serves that one file with the fix, and
 * nothing else. If the pool's text changes (a release with its own fix, or a rewrite), `patchedTestInternal`
 * throws instead of serving an unpatched module: check the release and drop this file.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const UNPATCHED = "\tfunction Class(...args) {\n\t\tClass.prototype = new Proxy(Class.prototype, {";
const PATCHED = "\tlet proxied = false;\n\tfunction Class(...args) {\n\t\tif (!proxied) proxied = true, Class.prototype = new Proxy(Class.prototype, {";

/** The pool's `cloudflare:test-internal` module file. */
export function testInternalPath(): string {
  // The package exports no package.json, so the folder is found the way Node looks for it.
  const name = "@cloudflare/vitest-pool-workers";
  const folder = (createRequire(import.meta.url).resolve.paths(name) ?? []).map((dir) => join(dir, name)).find((dir) => fs.existsSync(join(dir, "package.json")));
  if (!folder) throw new Error(`test/harness/wrapper-prototypes.mts: ${name} is not installed`);
  return join(folder, "dist", "worker", "lib", "cloudflare", "test-internal.mjs");
}

/** The module's text with the proxy installed once per wrapper class; throws when the text to fix is not there exactly once. */
export function patchedTestInternal(text: string): string {
  const at = text.indexOf(UNPATCHED);
  if (at < 0 || text.indexOf(UNPATCHED, at + 1) >= 0) {
    throw new Error(
      "test/harness/wrapper-prototypes.mts: @cloudflare/vitest-pool-workers' createProxyPrototypeClass is not the 0.15.1 text it patches; " +
        "check whether the release fixes cloudflare/workers-sdk#15092 and drop the patch.",
    );
  }
  return text.slice(0, at) + PATCHED + text.slice(at + UNPATCHED.length);
}

let installed = false;

/** Serves the pool's test-internal module with the fix from now on, in this process. */
export function installOnceWrappedPrototypes(): void {
  if (installed) return;
  installed = true;
  const target = testInternalPath();
  const patched = patchedTestInternal(fs.readFileSync(target, "utf8"));
  const readFileSync = fs.readFileSync;
  fs.readFileSync = function (this: unknown, ...args: Parameters<typeof fs.readFileSync>) {
    if (args[0] === target) return typeof args[1] === "string" || (args[1] as { encoding?: string } | undefined)?.encoding ? patched : Buffer.from(patched);
    return readFileSync.apply(this, args);
  } as typeof fs.readFileSync;
}
