import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { budget, measureBundle } from "../../scripts/lib/bundle-size.mjs";
import { measureStartup } from "../../scripts/lib/startup.mjs";
import { buildWorker } from "../../scripts/lib/worker-build.mjs";
import { PLACEHOLDER_DATABASE_ID, placeholdersIn, resourcesOf } from "../../scripts/lib/deploy-config.mjs";
import { main as deployMain } from "../../scripts/deploy.mjs";
import { main as setupMain } from "../../scripts/deploy-setup.mjs";

// The deploy path, without a Cloudflare account: the bundle is built exactly as
// `wrangler deploy` would build it, and the scripts drive a stand-in `wrangler`
// binary (the outside world) that records what it was asked to do.
const dir = mkdtempSync(join(tmpdir(), "rfs-deploy-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DB_ID = "6f1c2a4e-8b3d-4c5e-9f70-1a2b3c4d5e6f";
const SANDBOX_DB_ID = "0a9b8c7d-6e5f-4a3b-8c1d-2e3f4a5b6c7d";
const fake = join(dir, "wrangler");
writeFileSync(
  fake,
  `#!/usr/bin/env node
const args = process.argv.slice(2);
require("fs").appendFileSync(process.env.FAKE_LOG, JSON.stringify(args) + "\\n");
if (args[0] === "secret" && args[1] === "list") { console.log(JSON.stringify((process.env.FAKE_SECRETS ?? "SIGNING_SECRET,ADMIN_TOKEN").split(",").filter(Boolean).map((name) => ({ name, type: "secret_text" })))); process.exit(0); }
if (args[0] === "d1" && args[1] === "list") { console.log(JSON.stringify([{ uuid: "${DB_ID}", name: "rfs-staging" }, { uuid: "${SANDBOX_DB_ID}", name: "rfs-staging-sandbox" }, { uuid: "x", name: "other" }])); process.exit(0); }
if (process.env.FAKE_EXISTS && args.includes("create")) { console.error("✘ [ERROR] A resource with this name already exists. [code: 10004]"); process.exit(1); }
console.log("ok");
`,
);
chmodSync(fake, 0o755);

const SCRIPTS = { "scripts/deploy.mjs": deployMain, "scripts/deploy-setup.mjs": setupMain } as const;
type Script = keyof typeof SCRIPTS;

/** A fresh log for the stand-in wrangler, and the calls it recorded there. */
function fakeLog() {
  const log = join(dir, `log-${Math.random().toString(36).slice(2)}`);
  writeFileSync(log, "");
  return { log, calls: () => readFileSync(log, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as string[]) };
}

/**
 * The script as an operator runs it: `node <script>`, its exit status and output. Each spawn loads
 * wrangler's config reader again (about 2 s of CPU), so the cases that check the command itself (its
 * exit status, a whole run) spawn it and the others call `run` below.
 */
function spawnScript(script: Script, args: string[], extra: Record<string, string> = {}) {
  const { log, calls } = fakeLog();
  const result = spawnSync("node", [script, ...args], { encoding: "utf8", env: { ...process.env, WRANGLER: fake, FAKE_LOG: log, ...extra } });
  return { status: result.status, out: result.stdout + result.stderr, calls: calls() };
}

/**
 * The same script's `main` in this process (the stand-in wrangler is still a child process): the status
 * the command would exit with and what it printed. The environment the spawn would get is set for the
 * call and put back after.
 */
function run(script: Script, args: string[], extra: Record<string, string> = {}) {
  const { log, calls } = fakeLog();
  const env: Record<string, string> = { WRANGLER: fake, FAKE_LOG: log, ...extra };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  const out: string[] = [];
  const spies = (["log", "warn", "error"] as const).map((m) => vi.spyOn(console, m).mockImplementation((...a: unknown[]) => void out.push(`${a.join(" ")}\n`)));
  let status: number;
  try {
    status = SCRIPTS[script](args);
  } finally {
    for (const spy of spies) spy.mockRestore();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  return { status, out: out.join(""), calls: calls() };
}

/** wrangler.toml as an operator would leave it after editing: their zone, the pasted database ids (DB's, then DB_SANDBOX's). */
function editedConfig() {
  let edited = readFileSync("wrangler.toml", "utf8").replace(/example\.com/g, "acme-funding.dev");
  for (const id of [DB_ID, SANDBOX_DB_ID]) {
    const at = edited.indexOf(PLACEHOLDER_DATABASE_ID, edited.indexOf("[[env.staging.d1_databases]]"));
    edited = edited.slice(0, at) + id + edited.slice(at + PLACEHOLDER_DATABASE_ID.length);
  }
  const path = join(dir, "wrangler.toml");
  writeFileSync(path, edited);
  return path;
}

describe("the Worker bundle stays within bundle-budget.json", () => {
  // One production build for both figures, as `npm run build:check` does it.
  let build: ReturnType<typeof buildWorker>;
  beforeAll(() => {
    build = buildWorker("production");
  }, 120_000);
  afterAll(() => build?.remove());

  it("builds the production bundle with wrangler deploy --dry-run and measures it gzipped", { timeout: 120_000 }, () => {
    const size = measureBundle(build);
    expect(size.modules).toContain("index.js");
    // A real build: the Worker is more than a stub, and less than the budget.
    expect(size.gzipBytes).toBeGreaterThan(50_000);
    expect(size.gzipBytes, `gzip ${size.gzipBytes} bytes over the budget of ${budget().gzip_bytes}`).toBeLessThanOrEqual(budget().gzip_bytes);
  });

  it("the dry run carries both databases: DB and the sandbox's own DB_SANDBOX", () => {
    expect(build.output).toMatch(/env\.DB \(rfs-production\)\s+D1 Database/);
    expect(build.output).toMatch(/env\.DB_SANDBOX \(rfs-production-sandbox\)\s+D1 Database/);
  });

  // The budget's second figure, a cold isolate's startup CPU, is a timing: it is judged by `npm run build:check`
  // (median of 5 runs of `wrangler check startup`) and reported by `npm run bench`, never in the suite, where
  // the other invocation's load inflated it past the budget (a full run on 2026-11-26: 360, 43, 146 ms against
  // 120; docs/testing.md, "Timings stay out of the suite"). Here: the measurement itself works on this build, a
  // profile with active samples, so build:check cannot be broken by a change the suite would not see. Modules
  // that must not load at startup are kept out by the doors being built on first request (test/app-doors.test.ts).
  it("measures a cold isolate's startup with wrangler check startup (the budget is build:check's)", { timeout: 300_000 }, () => {
    const startup = measureStartup(build, 1);
    expect(startup.runsMs).toHaveLength(1);
    expect(Number.isFinite(startup.medianMs)).toBe(true);
    expect(startup.medianMs).toBeGreaterThan(0);
  });
});

describe("wrangler.toml environments", () => {
  it.each(["production", "staging"])("%s has its own resources, hosts, PUBLIC_URL and a dead-letter queue", (env) => {
    const r = resourcesOf({ env, config: "wrangler.toml" });
    expect(r.database.name).toMatch(/^rfs-/);
    // The sandbox's own database beside it (docs/capacity.md, "The sandbox in its own database").
    expect(r.databases).toEqual([
      { binding: "DB", name: `rfs-${env}`, id: PLACEHOLDER_DATABASE_ID },
      { binding: "DB_SANDBOX", name: `rfs-${env}-sandbox`, id: PLACEHOLDER_DATABASE_ID },
    ]);
    expect(r.deadLetterQueue).toBe(`${r.queue}-dlq`);
    expect(r.routes).toHaveLength(2);
    expect(r.sandboxHostnames.split(",")).toEqual(r.routes.filter((h: string) => h.startsWith("sandbox.")));
    expect(r.publicUrl).toBe(`https://${r.routes.find((h: string) => !h.startsWith("sandbox."))}`);
  });

  it.each(["production", "staging"])("%s is not a local deployment: SIGNING_SECRET is required there", (env) => {
    const c = readFileSync("wrangler.toml", "utf8");
    const vars = c.slice(c.indexOf(`[env.${env}.vars]`));
    expect(/DEPLOYMENT = "([^"]+)"/.exec(vars)?.[1]).toBe(env);
  });

  it("keeps staging and production apart", () => {
    const [p, s] = ["production", "staging"].map((env) => resourcesOf({ env, config: "wrangler.toml" }));
    for (const key of ["worker", "queue", "deadLetterQueue", "registerQueue", "bucket", "publicUrl"] as const) expect(p[key]).not.toBe(s[key]);
    expect(p.database.name).not.toBe(s.database.name);
    expect(p.databases.map((d: { name: string }) => d.name)).not.toContain(s.databases[1].name);
  });

  it("ships placeholders that the deploy refuses until they are edited", () => {
    expect(placeholdersIn(resourcesOf({ env: "production", config: "wrangler.toml" }))).toEqual([
      "database_id of rfs-production (run npm run deploy:setup -- --env production)",
      "database_id of rfs-production-sandbox (run npm run deploy:setup -- --env production)",
      "route api.example.com",
      "route sandbox.api.example.com",
      "PUBLIC_URL https://api.example.com",
      "SANDBOX_HOSTNAMES sandbox.api.example.com",
    ]);
  });
});

describe("npm run deploy:setup", { timeout: 90_000 }, () => {
  it("creates both databases, the dead-letter queue, the queue and the bucket, and prints each database_id to paste", () => {
    const { status, out, calls } = spawnScript("scripts/deploy-setup.mjs", ["--env", "staging"]);
    expect(status, out).toBe(0);
    expect(calls).toEqual([
      ["d1", "create", "rfs-staging"],
      ["d1", "create", "rfs-staging-sandbox"],
      ["queues", "create", "webhook-deliveries-staging-dlq"],
      ["queues", "create", "webhook-deliveries-staging"],
      ["queues", "create", "register-lookups-staging"],
      ["r2", "bucket", "create", "rfs-documents-staging"],
      ["d1", "list", "--json"],
    ]);
    expect(out).toContain(`database_id = "${DB_ID}"`);
    expect(out).toContain(`database_id = "${SANDBOX_DB_ID}"`);
    expect(out).toContain("binding DB_SANDBOX");
    expect(out).toContain("npx wrangler secret put ADMIN_TOKEN --env staging");
    expect(out).toContain("npx wrangler secret put SIGNING_SECRET --env staging");
  });

  it("keeps what already exists when run again", () => {
    const { status, out } = run("scripts/deploy-setup.mjs", ["--env=staging"], { FAKE_EXISTS: "1" });
    expect(status, out).toBe(0);
    expect(out).toContain("queue webhook-deliveries-staging exists; kept");
    expect(out).toContain(`database_id = "${DB_ID}"`);
  });

  it("says the id is in place once pasted", () => {
    const { status, out } = run("scripts/deploy-setup.mjs", ["--env", "staging", "--config", editedConfig()]);
    expect(status, out).toBe(0);
    expect(out).toContain(`already has database_id ${DB_ID}`);
    expect(out).toContain(`already has database_id ${SANDBOX_DB_ID} for rfs-staging-sandbox`);
  });

  it("refuses an unknown environment", () => {
    const { status, out, calls } = run("scripts/deploy-setup.mjs", ["--env", "prod"]);
    expect(status).toBe(1);
    expect(out).toContain("--env must be one of production, staging");
    expect(calls).toEqual([]);
  });
});

/** wrangler.toml with every environment ready to deploy: no placeholder anywhere. */
function readyConfig() {
  const path = join(dir, "wrangler-ready.toml");
  writeFileSync(path, readFileSync("wrangler.toml", "utf8").replace(/example\.com/g, "acme-funding.dev").replaceAll(PLACEHOLDER_DATABASE_ID, DB_ID));
  return path;
}

describe("issue 21 item 10 (and issue 24 item 12): the top level is never a deployment", { timeout: 90_000 }, () => {
  it("item 10: npm run deploy without --env refuses, lists the environments and touches nothing, even with production ready", () => {
    const config = readyConfig();
    const { status, out, calls } = run("scripts/deploy.mjs", ["--config", config]);
    expect(status, out).toBe(1);
    expect(out).toContain("choose the environment to deploy with --env");
    expect(out).toContain("production, staging");
    expect(calls).toEqual([]);
  });

  it("item 10: the top level of wrangler.toml is the local configuration, with a Worker, queues and bucket of its own", () => {
    const local = resourcesOf({ env: undefined as unknown as string, config: "wrangler.toml" });
    for (const env of ["production", "staging"]) {
      const deployed = resourcesOf({ env, config: "wrangler.toml" });
      expect(local.worker).not.toBe(deployed.worker);
      expect(local.bucket).not.toBe(deployed.bucket);
      for (const queue of [local.queue, local.deadLetterQueue, local.registerQueue]) {
        expect([deployed.queue, deployed.deadLetterQueue, deployed.registerQueue]).not.toContain(queue);
      }
    }
  });
});

describe("npm run deploy", { timeout: 90_000 }, () => {
  it("refuses while wrangler.toml holds the shipped placeholders, touching nothing", () => {
    const { status, out, calls } = spawnScript("scripts/deploy.mjs", ["--env", "production"]);
    expect(status).toBe(1);
    expect(out).toContain("still has placeholders");
    expect(calls).toEqual([]);
  });

  it("checks the secrets, applies the remote migrations to each database, then deploys", () => {
    const config = editedConfig();
    const { status, out, calls } = spawnScript("scripts/deploy.mjs", ["--env", "staging", "--config", config]);
    expect(status, out).toBe(0);
    expect(calls).toEqual([
      ["secret", "list", "--format", "json", "--env", "staging", "--config", config],
      ["d1", "migrations", "apply", "rfs-staging", "--remote", "--env", "staging", "--config", config],
      ["d1", "migrations", "apply", "rfs-staging-sandbox", "--remote", "--env", "staging", "--config", config],
      ["deploy", "--env", "staging", "--config", config],
    ]);
  });

  it("refuses without SIGNING_SECRET before migrating anything, naming the command that sets it", () => {
    const config = editedConfig();
    const { status, out, calls } = run("scripts/deploy.mjs", ["--env", "staging", "--config", config], { FAKE_SECRETS: "ADMIN_TOKEN" });
    expect(status).toBe(1);
    expect(out).toContain("npx wrangler secret put SIGNING_SECRET --env staging");
    expect(calls.map((c) => c.slice(0, 2))).toEqual([["secret", "list"]]);
  });

  it("only notes a missing ADMIN_TOKEN", () => {
    const config = editedConfig();
    const { status, out } = run("scripts/deploy.mjs", ["--env", "staging", "--config", config], { FAKE_SECRETS: "SIGNING_SECRET" });
    expect(status, out).toBe(0);
    expect(out).toContain("secret ADMIN_TOKEN is not set");
  });
});
