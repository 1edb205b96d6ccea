import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserServer } from "playwright-core";
import type { TestProject } from "vitest/node";
import { localRun } from "../../scripts/lib/local-run.mjs";
import { migratedStates } from "../../scripts/lib/local-migrations.mjs";
import { startService } from "../../scripts/lib/service.mjs";

export const E2E_ADMIN_TOKEN = "e2e-admin-token";

/**
 * The consumer in wrangler dev looks live leads up in the real registers; every register's base URL
 * points at a closed local port instead, so no e2e lookup leaves the machine (they answer `unavailable`).
 */
const OFFLINE = "http://127.0.0.1:9";
const REGISTERS_OFFLINE = {
  COMPANIES_HOUSE_API_URL: OFFLINE,
  HMRC_VAT_API_URL: OFFLINE,
  VIES_API_URL: OFFLINE,
  FR_API_URL: OFFLINE,
  KRS_API_URL: OFFLINE,
  ABN_LOOKUP_API_URL: OFFLINE,
};

/**
 * A fresh local state and a fresh wrangler dev for each lane of the e2e run: one lane per vitest worker
 * (`maxWorkers`, 2 by default in vitest.config.mts; `--maxWorkers=1` gives the one service of before).
 * A file talks to its own lane's service (`lane()` in client.ts), so files that run at the same time
 * never share a service, its rate-limit buckets or its database.
 */
export default async function setup(project: TestProject) {
  const count = Math.max(1, project.config.maxWorkers ?? 1);
  const log: string[] = [];
  // Each lane's port and state first, one after the other, so two lanes never draw the same free port.
  const runs: Awaited<ReturnType<typeof localRun>>[] = [];
  while (runs.length < count) {
    const run = await localRun(`rfs-e2e-${runs.length + 1}-`);
    if (runs.some((r) => r.port === run.port)) run.remove();
    else runs.push(run);
  }
  // One `wrangler d1 migrations apply` for all lanes, awaited without blocking, so the lanes' `wrangler
  // dev` then start side by side (docs/testing.md, "The lanes' start: one migration, copied"). It runs on
  // a template directory no service uses; each lane gets a copy, and so does a file that starts a
  // service of its own from `inject("migratedState")` (the README tour).
  const migrated = mkdtempSync(join(tmpdir(), "rfs-e2e-migrated-"));
  // `npm test` migrates a state while the first suite runs (scripts/test.mjs, E2E_MIGRATED_STATE, set only once that
  // succeeded): copied here, its record of applied migrations matches and migratedStates leaves wrangler out.
  // Otherwise it migrates here.
  const ahead = process.env.E2E_MIGRATED_STATE;
  if (ahead) cpSync(ahead, migrated, { recursive: true });
  await migratedStates([migrated, ...runs.map((r) => r.dir)]);
  const starts = await Promise.allSettled(
    runs.map(async ({ port, dir: persistTo }, i) => {
      const service = await startService({
        port,
        persistTo,
        // The bare start of decisions.md: only the --vars it names, no .dev.vars and no SIGNING_SECRET, so no operation may need one locally.
        // No PUBLIC_URL either: the starter derives it from the port (test/e2e/public-url.e2e.test.ts).
        // `bare`: a developer's .dev.vars (which may still hold a SIGNING_SECRET) is not read.
        // REGISTERS_OFFLINE configures nothing the service needs: it only keeps live register lookups on this machine.
        bare: true,
        vars: { ADMIN_TOKEN: E2E_ADMIN_TOKEN, ALLOW_PRIVATE_WEBHOOKS: "true", ...REGISTERS_OFFLINE },
        log: (line) => log.push(`[lane ${i + 1}] ${line}`),
      });
      return { service, lane: { baseUrl: service.url, sandboxUrl: service.sandboxUrl, persistTo } };
    }),
  );
  const started = starts.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  /** Stops the lanes that started and removes every state: the teardown, and a failed start's. */
  const stopLanes = () => {
    for (const { service } of started) service.stop();
    for (const run of runs) run.remove();
    rmSync(migrated, { recursive: true, force: true });
  };
  if (started.length < runs.length) {
    // A lane that did not start: stop the ones that did (no wrangler dev outlives the run) and say what
    // the failed lane's wrangler printed, which the teardown's E2E_LOG never shows when the setup throws.
    stopLanes();
    const failures = starts.flatMap((s, i) => (s.status === "rejected" ? [`lane ${i + 1}: ${String(s.reason instanceof Error ? s.reason.message : s.reason)}`] : []));
    throw new Error(`${failures.join("; ")}\n${log.join("").slice(-4000)}`);
  }
  project.provide("lanes", started.map((s) => s.lane));
  project.provide("adminToken", E2E_ADMIN_TOKEN);
  project.provide("migratedState", migrated);
  const chromiums = await chromiumBroker();
  project.provide("chromiumBroker", chromiums.url);
  return async () => {
    await chromiums.close();
    stopLanes();
    if (process.env.E2E_LOG) console.log(log.join(""));
  };
}

/**
 * One Chromium per lane for the browser files, started when the lane's first browser file asks
 * (`GET /chromium/<VITEST_POOL_ID>` answers the server's WebSocket address; chromiumForFile() in
 * test/browser/browser.ts connects to it), so a run of e2e files alone starts none. A failed start is
 * answered 500 with the reason, which the asking file throws.
 */
async function chromiumBroker() {
  const servers = new Map<string, Promise<BrowserServer>>();
  const http = createServer((req, res) => {
    const slot = /^\/chromium\/(\d+)$/.exec(req.url ?? "")?.[1];
    if (!slot) return void res.writeHead(404).end();
    if (!servers.has(slot)) {
      servers.set(
        slot,
        import("../browser/chromium").then(({ launchChromiumServer }) => launchChromiumServer()),
      );
    }
    servers.get(slot)!.then(
      (server) => res.writeHead(200, { "Content-Type": "text/plain" }).end(server.wsEndpoint()),
      (error: unknown) => {
        servers.delete(slot);
        res.writeHead(500, { "Content-Type": "text/plain" }).end(String(error instanceof Error ? error.message : error));
      },
    );
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    async close() {
      http.close();
      const started = await Promise.allSettled(servers.values());
      await Promise.all(started.map((s) => (s.status === "fulfilled" ? s.value.close() : undefined)));
    },
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    /** One running service per lane (vitest worker slot): its base URL, its sandbox URL and its local state directory (for setup the public APIs do not offer yet). */
    lanes: { baseUrl: string; sandboxUrl: string; persistTo: string }[];
    adminToken: string;
    /** A local state directory with every migration applied and nothing else; copy it (`cpSync`), never start a service on it. */
    migratedState: string;
    /** The address of the per-lane Chromium broker (chromiumBroker above). */
    chromiumBroker: string;
  }
}
