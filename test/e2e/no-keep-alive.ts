import { Agent, setGlobalDispatcher, type Dispatcher } from "undici";

/**
 * fetch's connection pool for the e2e and browser files: no keep-alive (`pipelining: 0`), so every
 * request opens a connection of its own and closes it after the answer.
 *
 * The files of a lane share one worker (`isolate: false` in vitest.config.mts), so with Node's default
 * pool a file would reuse the idle connections the file before it (or its own earlier requests) left
 * to the lane's `wrangler dev`. A file that holds the event loop for seconds (guides' synchronous
 * render, a compiler) lets the server close such a connection without undici seeing it, and the next
 * request, written on the closed socket, fails `fetch failed: other side closed` (docs/testing.md, "A
 * connection closed while the loop was busy"). A connection per request has no idle time to lose.
 * test/unit/tooling/e2e-no-keep-alive.test.ts replays that race against a local server.
 *
 * `undici` is pinned to the version Node's own fetch bundles (`process.versions.undici`), so the
 * Agent speaks the dispatcher interface that fetch expects.
 */
export function noKeepAliveAgent(): Dispatcher {
  return new Agent({ pipelining: 0 });
}

/** Set on globalThis once the Agent is installed. */
export const NO_KEEP_ALIVE_INSTALLED = Symbol.for("rfs.e2e.noKeepAliveDispatcher");

/** Makes the no-keep-alive Agent fetch's global dispatcher in this process (once; later calls keep it). */
export function useNoKeepAlive(): void {
  const scope = globalThis as { [NO_KEEP_ALIVE_INSTALLED]?: true };
  if (scope[NO_KEEP_ALIVE_INSTALLED]) return;
  setGlobalDispatcher(noKeepAliveAgent());
  scope[NO_KEEP_ALIVE_INSTALLED] = true;
}
