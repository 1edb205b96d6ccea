import { createHash } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import type { Duplex } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { UNOFFERED_EXTENSION, uncompressedPoolMessages } from "../../harness/uncompressed-pool-messages.mjs";

// The `ws` that miniflare opens the pool's sockets with, and its permessage-deflate class.
const fromMiniflare = createRequire(createRequire(import.meta.url).resolve("miniflare"));
const WebSocket = fromMiniflare("ws") as new (url: string) => { on(event: string, cb: (...args: unknown[]) => void): void; close(): void; _extensions: Record<string, unknown> };
const PerMessageDeflate = fromMiniflare(join(dirname(fromMiniflare.resolve("ws")), "lib", "permessage-deflate.js")) as object;
const original = Object.getOwnPropertyDescriptor(PerMessageDeflate, "extensionName")!;

/** A server that records what a client offers and, like workerd, accepts permessage-deflate when it is offered. */
async function upgradeServer() {
  const offers: (string | undefined)[] = [];
  const sockets: Duplex[] = [];
  const server = createServer();
  server.on("upgrade", (req: IncomingMessage, socket) => {
    const offered = req.headers["sec-websocket-extensions"];
    offers.push(offered);
    sockets.push(socket);
    const accept = createHash("sha1").update(`${req.headers["sec-websocket-key"]}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest("base64");
    const deflate = offered?.split(",").some((o) => o.trim().split(";")[0] === "permessage-deflate") ? "Sec-WebSocket-Extensions: permessage-deflate\r\n" : "";
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n${deflate}\r\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { offers, url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise((resolve) => (sockets.forEach((s) => s.destroy()), server.close(resolve))) };
}

async function connect(url: string) {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => (socket.on("open", resolve), socket.on("error", reject)));
  const extensions = Object.keys(socket._extensions);
  socket.close();
  return extensions;
}

describe("the pool's loopback WebSocket without permessage-deflate", () => {
  afterAll(() => Object.defineProperty(PerMessageDeflate, "extensionName", original));

  it("offers permessage-deflate as ws does by default, and after the harness offers nothing a server would accept, so neither end compresses", async () => {
    const server = await upgradeServer();
    try {
      Object.defineProperty(PerMessageDeflate, "extensionName", original);
      expect(await connect(server.url)).toEqual(["permessage-deflate"]);
      uncompressedPoolMessages();
      uncompressedPoolMessages(); // twice, as two configs in one process would: still one rename
      expect(await connect(server.url)).toEqual([]);
      expect(server.offers[0]).toMatch(/^permessage-deflate/);
      expect(server.offers[1]).toMatch(new RegExp(`^${UNOFFERED_EXTENSION}`));
      expect(server.offers[1]).not.toContain("permessage-deflate");
    } finally {
      await server.close();
    }
  });
});
