import { describe, expect, it, vi } from "vitest";
import { INFO_LINE_START, isServiceInfoLine, quietInfoLogs } from "../../helpers/quiet-info-logs";

/** A console whose methods record what reaches them, as vitest's intercepting console would receive it. */
function recordingConsole() {
  const seen: { method: string; data: unknown[] }[] = [];
  const record = (method: string) => (...data: unknown[]) => void seen.push({ method, data });
  const target = { log: record("log"), info: record("info"), warn: record("warn"), error: record("error"), debug: record("debug") };
  return { target: target as unknown as Console, seen };
}

const info = JSON.stringify({ level: "info", event: "request", status: 200 });
const warn = JSON.stringify({ level: "warn", event: "register_source", status: 503 });
const error = JSON.stringify({ level: "error", event: "unhandled", status: 500 });

describe("the harness drops the service's info lines before vitest's console (test/helpers/quiet-info-logs.ts)", () => {
  it("knows the logger's info line by its start, and nothing else", () => {
    expect(info.startsWith(INFO_LINE_START)).toBe(true);
    expect(isServiceInfoLine([info])).toBe(true);
    expect(isServiceInfoLine([warn])).toBe(false);
    expect(isServiceInfoLine(["plain text"])).toBe(false);
    expect(isServiceInfoLine([info, "more"])).toBe(false);
    expect(isServiceInfoLine([{ level: "info", event: "x" }])).toBe(false);
  });

  it("drops info lines written with log or info; every other line, warnings and errors reach the console", () => {
    const { target, seen } = recordingConsole();
    quietInfoLogs(target);
    target.log(info);
    target.info(info);
    target.log("a test's own line");
    target.info("an info call that is not a service line");
    target.warn(warn);
    target.error(error);
    // A line of level info written with warn is not the logger's (it writes info with console.log): kept.
    target.warn(info);
    expect(seen).toEqual([
      { method: "log", data: ["a test's own line"] },
      { method: "info", data: ["an info call that is not a service line"] },
      { method: "warn", data: [warn] },
      { method: "error", data: [error] },
      { method: "warn", data: [info] },
    ]);
  });

  it("is installed once per console: a second setup run does not stack a second filter", () => {
    const { target, seen } = recordingConsole();
    quietInfoLogs(target);
    const filtered = target.log;
    quietInfoLogs(target);
    expect(target.log).toBe(filtered);
    target.log("once");
    expect(seen).toEqual([{ method: "log", data: ["once"] }]);
  });

  it("a spy on the console sees every line, info included, and restoring it puts the filter back", () => {
    const { target, seen } = recordingConsole();
    quietInfoLogs(target);
    const filtered = target.log;
    const captured: unknown[][] = [];
    const spy = vi.spyOn(target, "log").mockImplementation((...data: unknown[]) => void captured.push(data));
    target.log(info);
    expect(captured).toEqual([[info]]);
    spy.mockRestore();
    expect(target.log).toBe(filtered);
    // A spy that calls through records the line; the filter behind it still drops it.
    const through = vi.spyOn(target, "log");
    target.log(info);
    expect(through).toHaveBeenCalledWith(info);
    through.mockRestore();
    expect(seen).toEqual([]);
  });
});
