import type { TestProject } from "vitest/node";
import { localRun } from "../../scripts/lib/local-run.mjs";
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

/** A fresh local state and a fresh wrangler dev for the whole e2e run. */
export default async function setup(project: TestProject) {
  const { port, dir: persistTo, remove } = await localRun("rfs-e2e-");
  const log: string[] = [];
  const service = await startService({
    port,
    persistTo,
    // The bare start of decisions.md: only the --vars it names, no .dev.vars and no SIGNING_SECRET, so no operation may need one locally.
    // No PUBLIC_URL either: the starter derives it from the port (test/e2e/public-url.e2e.test.ts).
    // `bare`: a developer's .dev.vars (which may still hold a SIGNING_SECRET) is not read.
    // REGISTERS_OFFLINE configures nothing the service needs: it only keeps live register lookups on this machine.
    bare: true,
    vars: { ADMIN_TOKEN: E2E_ADMIN_TOKEN, ALLOW_PRIVATE_WEBHOOKS: "true", ...REGISTERS_OFFLINE },
    log: (line) => log.push(line),
  });
  project.provide("baseUrl", service.url);
  project.provide("sandboxUrl", service.sandboxUrl);
  project.provide("adminToken", E2E_ADMIN_TOKEN);
  project.provide("persistTo", persistTo);
  return () => {
    service.stop();
    remove();
    if (process.env.E2E_LOG) console.log(log.join(""));
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    sandboxUrl: string;
    adminToken: string;
    /** The local state directory of the running service (for setup the public APIs do not offer yet). */
    persistTo: string;
  }
}
