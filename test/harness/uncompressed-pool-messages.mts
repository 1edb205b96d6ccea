/**
 * The pool talks to each workerd runtime over one WebSocket on the loopback (the module code it serves, every
 * RPC message). Miniflare opens it with `ws`, whose client offers permessage-deflate, and workerd accepts, so
 * both ends compressed every message: this (vitest's main) process deflated what it sent and inflated what
 * workerd sent, and workerd did the same the other way. zlib was the main process's largest single cost in a
 * profile (docs/testing.md, "Info lines and the main process", and "No permessage-deflate on the loopback").
 *
 * Miniflare gives `ws` no `perMessageDeflate` option, so the offer is renamed instead: `ws` names the extension
 * it offers, and the only one it accepts in the answer, after `PerMessageDeflate.extensionName`. Renamed, the
 * client offers an extension workerd does not know, workerd answers with none, and neither end compresses.
 * Every `ws` socket of this process is affected the same way (a server would no longer accept the extension
 * either); in the suite's main process there are only the pool's and miniflare's own loopback sockets.
 * The compatibility flag `no_web_socket_compression` on the runner did not stop the negotiation (zlib
 * unchanged in a profile), and `ws`'s 1 KiB threshold applies only without context takeover.
 *
 * If `ws` changes (no `extensionName` getter, or the offer no longer built from it), this throws instead of
 * silently compressing again: check the release.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** What the client offers instead of `permessage-deflate`: a name no server knows (RFC 6455 §9.1 lets it ignore one). */
export const UNOFFERED_EXTENSION = "x-rfs-uncompressed";

export function uncompressedPoolMessages(): void {
  const fromMiniflare = createRequire(createRequire(import.meta.url).resolve("miniflare"));
  const lib = join(dirname(fromMiniflare.resolve("ws")), "lib");
  const offer = /\[PerMessageDeflate\.extensionName\]: perMessageDeflate\.offer\(\)/;
  if (!offer.test(fs.readFileSync(join(lib, "websocket.js"), "utf8")) || !/static get extensionName\(\)/.test(fs.readFileSync(join(lib, "permessage-deflate.js"), "utf8"))) {
    throw new Error(`test/harness/uncompressed-pool-messages.mts: ${lib} no longer builds its permessage-deflate offer from PerMessageDeflate.extensionName; check the ws release`);
  }
  const PerMessageDeflate = fromMiniflare(join(lib, "permessage-deflate.js")) as { extensionName: string };
  if (PerMessageDeflate.extensionName === UNOFFERED_EXTENSION) return;
  Object.defineProperty(PerMessageDeflate, "extensionName", { get: () => UNOFFERED_EXTENSION, configurable: true });
}
