// What every run that starts its own service prepares first: a port nobody listens on and a fresh
// local state directory, removed afterwards. Used by the e2e global setup, the tests that start a
// service of their own (`npm run dev`'s log, the README tour), `npm run sdk:generate` and the bench.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A TCP port free on 127.0.0.1 just now (the system picks it). @returns {Promise<number>} */
export const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = /** @type {import("node:net").AddressInfo} */ (server.address());
      server.close(() => resolve(address.port));
    });
  });

/**
 * A free port and a new directory under the system's temporary folder (`<prefix>XXXXXX`) for a
 * service's local state; `remove()` deletes the directory and whatever was put in it.
 * @param {string} prefix
 * @returns {Promise<{ port: number; dir: string; remove: () => void }>}
 */
export async function localRun(prefix) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { port, dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
