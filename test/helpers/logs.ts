import { vi } from "vitest";

/** One line the service wrote, parsed: every line is a JSON object with a level and an event. */
export interface LogLine {
  level: "info" | "warn" | "error";
  event: string;
  [field: string]: unknown;
}

/**
 * Records what the worker writes to the console while a test runs (the tests
 * call the worker in their own isolate, so its console is this one), and keeps
 * it out of the test output. `raw` holds every write as it was made, for checks
 * that must see everything; `lines()` parses them and fails on one that is not JSON.
 */
export function captureLogs() {
  const raw: string[] = [];
  const spies = (["log", "info", "warn", "error", "debug"] as const).map((method) =>
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      raw.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "));
    }),
  );
  const lines = (): LogLine[] =>
    raw.map((text) => {
      const parsed = JSON.parse(text);
      if (typeof parsed !== "object" || parsed === null || typeof parsed.level !== "string" || typeof parsed.event !== "string") {
        throw new Error(`not a log line of ours: ${text}`);
      }
      return parsed as LogLine;
    });
  return {
    raw,
    lines,
    /** The lines of one event, e.g. "request" or "webhook_delivery". */
    of: (event: string) => lines().filter((line) => line.event === event),
    restore: () => spies.forEach((spy) => spy.mockRestore()),
  };
}

export type LogCapture = ReturnType<typeof captureLogs>;
