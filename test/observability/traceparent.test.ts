import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { continueTrace, formatTraceparent, parseTraceparent } from "../../src/lib/trace-context";
import { call } from "../helpers/api";
import { captureLogs, type LogCapture } from "../helpers/logs";
import { expectProblem, partnerWithKeys } from "../helpers/seed";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = "00f067aa0ba902b7";
const VALID = `00-${TRACE}-${PARENT}-01`;
const SHAPE = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

describe("parsing traceparent (W3C Trace Context)", () => {
  it("reads a version 00 header", () => {
    expect(parseTraceparent(VALID)).toEqual({ traceId: TRACE, parentId: PARENT, flags: "01" });
    expect(parseTraceparent(`00-${TRACE}-${PARENT}-00`)?.flags).toBe("00");
    // Any two hex digits are flags, not only 00 and 01.
    expect(parseTraceparent(`00-${TRACE}-${PARENT}-0a`)?.flags).toBe("0a");
  });

  it("reads a future version by its first four fields and keeps only the sampled flag", () => {
    expect(parseTraceparent(`01-${TRACE}-${PARENT}-03-more-fields`)).toEqual({ traceId: TRACE, parentId: PARENT, flags: "01" });
    expect(parseTraceparent(`cc-${TRACE}-${PARENT}-02`)).toEqual({ traceId: TRACE, parentId: PARENT, flags: "00" });
  });

  it.each([
    ["absent", undefined],
    ["empty", ""],
    ["version ff", `ff-${TRACE}-${PARENT}-01`],
    ["version 00 with a fifth field", `${VALID}-extra`],
    ["trace id all zeros", `00-${"0".repeat(32)}-${PARENT}-01`],
    ["parent id all zeros", `00-${TRACE}-${"0".repeat(16)}-01`],
    ["upper-case hex", `00-${TRACE.toUpperCase()}-${PARENT}-01`],
    ["non-hex trace id", `00-${"z".repeat(32)}-${PARENT}-01`],
    ["short trace id", `00-${TRACE.slice(1)}-${PARENT}-01`],
    ["long parent id", `00-${TRACE}-${PARENT}0-01`],
    ["one-digit flags", `00-${TRACE}-${PARENT}-1`],
    ["non-hex flags", `00-${TRACE}-${PARENT}-0g`],
    ["version of one digit", `0-${TRACE}-${PARENT}-01`],
    ["a future version not followed by a dash", `01-${TRACE}-${PARENT}-01x`],
    ["underscores for dashes", `00_${TRACE}_${PARENT}_01`],
  ])("ignores a header that is %s", (_name, header) => {
    expect(parseTraceparent(header)).toBeNull();
  });

  it("continues a valid trace with a span of its own, and starts a fresh one otherwise", () => {
    const continued = continueTrace(VALID);
    expect(continued).toMatchObject({ traceId: TRACE, parentId: PARENT, flags: "01", origin: "continued" });
    expect(continued.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(continued.spanId).not.toBe(PARENT);
    expect(formatTraceparent(continued)).toBe(`00-${TRACE}-${continued.spanId}-01`);

    const replaced = continueTrace(`00-${"0".repeat(32)}-${PARENT}-01`);
    expect(replaced).toMatchObject({ parentId: null, origin: "invalid" });
    expect(replaced.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(replaced.traceId).not.toBe("0".repeat(32));
    expect(continueTrace(undefined).origin).toBe("absent");
  });
});

describe("traceparent on the wire", () => {
  let logs: LogCapture;
  beforeEach(() => {
    logs = captureLogs();
  });
  afterEach(() => logs.restore());

  const requestLine = (requestId: string | null) => logs.of("request").find((line) => line.request_id === requestId);

  it("a valid traceparent is echoed with the same trace id and a new parent id, and logged", async () => {
    const { sandbox } = await partnerWithKeys();
    const res = await call("GET", "/partner/v1/enums/industries", { key: sandbox.key, headers: { traceparent: VALID } });
    expect(res.status).toBe(200);
    const [, traceId, spanId, flags] = SHAPE.exec(res.headers.get("traceparent") ?? "") ?? [];
    expect(traceId).toBe(TRACE);
    expect(spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(spanId).not.toBe(PARENT);
    expect(flags).toBe("01");
    expect(requestLine(res.headers.get("X-Request-Id"))).toMatchObject({ trace_id: TRACE, span_id: spanId, parent_id: PARENT, trace_origin: "continued" });
  });

  it("an error answer carries it too", async () => {
    const res = await call("GET", "/partner/v1/leads", { headers: { traceparent: VALID } });
    expectProblem(res, 401, "unauthorized");
    expect(res.headers.get("traceparent")).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-01$`));
  });

  it.each([
    ["all-zero trace id", `00-${"0".repeat(32)}-${PARENT}-01`],
    ["malformed", "not-a-traceparent"],
    ["upper-case", VALID.toUpperCase()],
  ])("an invalid traceparent (%s) is replaced by a fresh trace", async (_name, header) => {
    const res = await call("GET", "/health", { headers: { traceparent: header } });
    const [, traceId, spanId] = SHAPE.exec(res.headers.get("traceparent") ?? "") ?? [];
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(traceId).not.toBe(TRACE);
    expect(traceId).not.toBe("0".repeat(32));
    expect(spanId).not.toBe(PARENT);
    expect(requestLine(res.headers.get("X-Request-Id"))).toMatchObject({ trace_id: traceId, parent_id: null, trace_origin: "invalid" });
  });

  it("without one, every answer starts its own trace", async () => {
    const first = await call("GET", "/health");
    const second = await call("GET", "/health");
    const idOf = (h: string | null) => SHAPE.exec(h ?? "")?.[1];
    expect(idOf(first.headers.get("traceparent"))).toMatch(/^[0-9a-f]{32}$/);
    expect(idOf(first.headers.get("traceparent"))).not.toBe(idOf(second.headers.get("traceparent")));
    expect(requestLine(first.headers.get("X-Request-Id"))).toMatchObject({ trace_origin: "absent", parent_id: null });
  });
});
