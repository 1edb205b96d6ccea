import { Worker } from "node:worker_threads";
import { getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { NO_KEEP_ALIVE_INSTALLED, noKeepAliveAgent, useNoKeepAlive } from "../../e2e/no-keep-alive";

// The race behind "fetch failed: other side closed" in the e2e run (docs/testing.md, "A connection
// closed while the loop was busy"): a file fetches, then holds the event loop (a synchronous render, a
// compiler); meanwhile the server closes the idle keep-alive connection; undici has not read the close
// yet and writes the next request on that socket. Replayed here with a local HTTP server with a short
// keepAliveTimeout, run in a worker thread so that it closes the connection while this thread is
// blocked. The block is no guessed duration: it lasts until the server says it has closed the first
// connection (a SharedArrayBuffer it notifies), so the replay is the same on a busy machine.

const SERVER = `
const { createServer } = require("node:http");
const { parentPort, workerData } = require("node:worker_threads");
const closed = new Int32Array(workerData.closed);
// "Connection: keep-alive" set by hand: Node then sends no "Keep-Alive: timeout=0" hint (which would keep
// undici from reusing the connection at all), and undici assumes its own 4 s, as with wrangler dev.
const server = createServer((req, res) => res.writeHead(200, { Connection: "keep-alive" }).end("ok"));
server.keepAliveTimeout = 100;
server.on("connection", (socket) => socket.on("close", () => { Atomics.add(closed, 0, 1); Atomics.notify(closed, 0); }));
server.listen(0, "127.0.0.1", () => parentPort.postMessage(server.address().port));
parentPort.on("message", () => { server.closeAllConnections(); server.close(() => parentPort.close()); });
`;

let stopServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stopServer?.();
  stopServer = undefined;
});

async function serverInAWorker() {
  const closed = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(SERVER, { eval: true, workerData: { closed: closed.buffer } });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  stopServer = async () => {
    worker.postMessage("stop");
    await new Promise((resolve) => worker.once("exit", resolve));
  };
  return { url: `http://127.0.0.1:${port}/`, closed };
}

/** Two fetches with the loop held between them until the server has closed the first connection. */
async function fetchBlockFetch(dispatcher?: Dispatcher) {
  const { url, closed } = await serverInAWorker();
  const init = (dispatcher ? { dispatcher } : {}) as RequestInit;
  const first = await fetch(url, init);
  expect(await first.text()).toBe("ok");
  // Let undici put the connection back in its pool (it does so after the answer's body is read).
  await new Promise((resolve) => setTimeout(resolve, 20));
  // Synchronous, like guides' render: nothing on this thread runs until the server has closed the first connection.
  expect(Atomics.wait(closed, 0, 0, 30_000)).not.toBe("timed-out");
  const second = await fetch(url, init);
  return second.text();
}

describe("e2e fetch: no keep-alive, so a busy loop cannot lose a connection (issue 20)", () => {
  it("with Node's default pool the request after the block is written on the closed connection and fails (the race is real)", async () => {
    const failure = await fetchBlockFetch().then(
      () => undefined,
      (error: unknown) => error as Error & { cause?: { code?: string } },
    );
    expect(failure?.message).toBe("fetch failed");
    expect(["UND_ERR_SOCKET", "ECONNRESET"]).toContain(failure?.cause?.code);
  });

  it("with the e2e files' Agent (no keep-alive) the request after the block gets its answer", async () => {
    expect(await fetchBlockFetch(noKeepAliveAgent())).toBe("ok");
  });

  it("useNoKeepAlive() (the e2e config's setup file) makes that Agent fetch's global dispatcher", async () => {
    const before = getGlobalDispatcher();
    const scope = globalThis as { [NO_KEEP_ALIVE_INSTALLED]?: true };
    const wasInstalled = scope[NO_KEEP_ALIVE_INSTALLED];
    delete scope[NO_KEEP_ALIVE_INSTALLED];
    try {
      useNoKeepAlive();
      expect(getGlobalDispatcher()).not.toBe(before);
      expect(await fetchBlockFetch()).toBe("ok");
    } finally {
      setGlobalDispatcher(before);
      if (wasInstalled) scope[NO_KEEP_ALIVE_INSTALLED] = true;
      else delete scope[NO_KEEP_ALIVE_INSTALLED];
    }
  });
});
