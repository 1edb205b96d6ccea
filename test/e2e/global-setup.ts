import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { startService } from "../../scripts/lib/service.mjs";

export const E2E_ADMIN_TOKEN = "e2e-admin-token";

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** A fresh local state and a fresh wrangler dev for the whole e2e run. */
export default async function setup(project: TestProject) {
  const persistTo = mkdtempSync(join(tmpdir(), "rfs-e2e-"));
  const port = await freePort();
  const log: string[] = [];
  const service = await startService({
    port,
    persistTo,
    // The bare start of decisions.md: only the --vars it names, no .dev.vars and no SIGNING_SECRET, so no operation may need one locally.
    // `bare`: a developer's .dev.vars (which may still hold a SIGNING_SECRET) is not read.
    bare: true,
    vars: { ADMIN_TOKEN: E2E_ADMIN_TOKEN, ALLOW_PRIVATE_WEBHOOKS: "true", PUBLIC_URL: `http://localhost:${port}` },
    log: (line) => log.push(line),
  });
  project.provide("baseUrl", service.url);
  project.provide("sandboxUrl", service.sandboxUrl);
  project.provide("adminToken", E2E_ADMIN_TOKEN);
  project.provide("persistTo", persistTo);
  return () => {
    service.stop();
    rmSync(persistTo, { recursive: true, force: true });
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
