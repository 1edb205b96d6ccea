// A setup file (vitest.config.mts, the workerd projects): it runs before every test file.
//
// The service writes an info line for every request it serves (src/lib/logger.ts). Inside a workerd
// runtime vitest has replaced `console` with one that buffers each write and sends it over RPC to the
// main process, where the lines were only dropped (`onConsoleLog`): two runtimes' worth of JSON
// formatted, stringified, sent and parsed for nothing. Here the info lines of the service are dropped
// before vitest's console sees them, at the console itself: `console.log` and `console.info` become a
// filter in front of vitest's methods. Nothing else changes:
//
// - the product logs exactly as before (the logger looks the console up at each call);
// - warnings, errors and any other line still reach vitest and print;
// - a test that reads lines (test/helpers/logs.ts `captureLogs`, a `vi.spyOn(console, …)`) replaces the
//   method with its spy, so it sees every line, info included; restoring the spy puts the filter back.
//
// Files of a worker share a runtime, so this runs again in a console it already filtered: the filter is
// installed once per console object (vitest makes a new one when it sets up a runtime's environment).

/** The start of every info line src/lib/logger.ts writes: `JSON.stringify({ level, event, ...fields })`. */
export const INFO_LINE_START = '{"level":"info","event":"';

const FILTERED = Symbol.for("rfs.quietInfoLogs");

type ConsoleMethod = (...data: unknown[]) => void;

/** True for one of the service's info lines written as the only argument, as the logger writes it. */
export function isServiceInfoLine(data: unknown[]): boolean {
  return data.length === 1 && typeof data[0] === "string" && data[0].startsWith(INFO_LINE_START);
}

/** Puts a filter in front of `target`'s log and info methods that drops the service's info lines. */
export function quietInfoLogs(target: Console): void {
  const marked = target as Console & { [FILTERED]?: true };
  if (marked[FILTERED]) return;
  for (const method of ["log", "info"] as const) {
    // Bound now: vitest's workerd console hands out methods bound to itself, node's Console methods are bound too.
    const write = (target[method] as ConsoleMethod).bind(target);
    Object.defineProperty(target, method, {
      configurable: true,
      enumerable: true,
      writable: true,
      value: function quietInfo(...data: unknown[]) {
        if (!isServiceInfoLine(data)) write(...data);
      },
    });
  }
  Object.defineProperty(target, FILTERED, { value: true, configurable: true });
}

quietInfoLogs(console);
