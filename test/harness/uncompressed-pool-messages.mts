/**
 * The pool talks to each workerd runtime over one WebSocket on the loopback (the module code it serves, every
 * RPC message). Miniflare opens it with `ws`, whose client offers permessage-deflate, and workerd accepts, so
 * this (vitest's main) process deflated every message it sent (each module's code, every RPC answer) and workerd
 * inflated it: zlib was the main process's largest single cost in a profile (docs/testing.md, "Info lines and
 * the main process"). The extension lets a sender leave any message uncompressed (RSV1 clear, RFC 7692 §6);
 * this makes `ws`'s Sender, as miniflare loads it, send every message that way. Messages from workerd are still
 * inflated as before. The compatibility flag `no_web_socket_compression` on the runner worker did not stop the
 * negotiation (zlib unchanged in a profile), and `ws`'s 1 KiB threshold applies only without context takeover.
 *
 * If `ws`'s Sender changes (no `send(data, options, cb)` reading `options.compress`), this throws instead of
 * silently compressing again: check the release.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

type Send = (this: unknown, data: unknown, options: { compress?: boolean }, cb?: unknown) => unknown;
const PATCHED = Symbol.for("rfs.uncompressedPoolMessages");

export function uncompressedPoolMessages(): void {
  const fromMiniflare = createRequire(createRequire(import.meta.url).resolve("miniflare"));
  const file = join(dirname(fromMiniflare.resolve("ws")), "lib", "sender.js");
  if (!/\n {2}send\(data, options, cb\) \{[^]*?let rsv1 = options\.compress;/.test(fs.readFileSync(file, "utf8"))) {
    throw new Error(`test/harness/uncompressed-pool-messages.mts: ${file} no longer reads options.compress in send; check the ws release`);
  }
  const Sender = fromMiniflare(file) as { prototype: { send: Send & { [PATCHED]?: true } } };
  if (Sender.prototype.send[PATCHED]) return;
  const send = Sender.prototype.send;
  const uncompressed: Send & { [PATCHED]?: true } = function (this: unknown, data, options, cb) {
    return send.call(this, data, { ...options, compress: false }, cb);
  };
  uncompressed[PATCHED] = true;
  Sender.prototype.send = uncompressed;
}
