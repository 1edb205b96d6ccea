import { afterEach, describe, expect, it, vi } from "vitest";
import { call, newClientAddress } from "../helpers/api";
import { captureLogs } from "../helpers/logs";
import { isServiceInfoLine } from "../helpers/quiet-info-logs";

// The workerd projects list test/helpers/quiet-info-logs.ts in setupFiles: the runtime's console drops the
// service's info lines before vitest sends them to the main process. Tests that read the lines still see them.
afterEach(() => vi.restoreAllMocks());

describe("info lines in the workerd runtime", () => {
  it("the runtime's console is the filtered one", () => {
    expect((console as unknown as Record<symbol, unknown>)[Symbol.for("rfs.quietInfoLogs")]).toBe(true);
    expect(console.log.name).toContain("quietInfo");
    expect(console.info.name).toContain("quietInfo");
  });

  it("a capture (test/helpers/logs.ts) still sees the request's info line", async () => {
    const logs = captureLogs();
    try {
      const res = await call("GET", "/health", { headers: { "CF-Connecting-IP": newClientAddress() } });
      const id = res.headers.get("X-Request-Id");
      const lines = logs.of("request").filter((line) => line.request_id === id);
      expect(lines).toHaveLength(1);
      expect(lines[0].level).toBe("info");
      expect(logs.raw.some((text) => isServiceInfoLine([text]))).toBe(true);
    } finally {
      logs.restore();
    }
    expect(console.log.name).toContain("quietInfo");
  });

  it("a spy that calls through sees the info line too", async () => {
    const spy = vi.spyOn(console, "log");
    const res = await call("GET", "/health", { headers: { "CF-Connecting-IP": newClientAddress() } });
    const id = res.headers.get("X-Request-Id") ?? "";
    const lines = spy.mock.calls.filter((data) => isServiceInfoLine(data) && String(data[0]).includes(id));
    expect(lines).toHaveLength(1);
  });
});
