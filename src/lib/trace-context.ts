/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/) `traceparent`:
 * `version-traceid-parentid-flags`, lowercase hex.
 *
 * Hand-written because the one small library found (`tctx` 0.2.6) accepts
 * non-hex and upper-case ids (`\W` checks), refuses valid hex flags such as
 * `0a`, and keeps the parent of a header whose trace id is all zeros; the
 * rule itself is one regular expression.
 *
 * - version `00`: exactly 55 characters; `ff` is never valid; a higher version
 *   is read by its first four fields and must continue with `-` (the spec's
 *   forward compatibility).
 * - trace-id: 32 hex, not all zeros; parent-id: 16 hex, not all zeros; flags: 2 hex.
 * An invalid header is ignored: the request starts a fresh trace.
 */

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ALL_ZEROS = /^0+$/;
const SAMPLED = 0x01;

export interface IncomingTrace {
  traceId: string;
  parentId: string;
  flags: string;
}

export function parseTraceparent(header: string | null | undefined): IncomingTrace | null {
  if (!header) return null;
  const match = TRACEPARENT.exec(header.trim());
  if (!match) return null;
  const [, version, traceId, parentId, flags, rest] = match;
  if (version === "ff" || (version === "00" && rest !== undefined)) return null;
  if (ALL_ZEROS.test(traceId) || ALL_ZEROS.test(parentId)) return null;
  // Flags defined after version 00 mean nothing to us: only the sampled bit is carried over from a newer version.
  const carried = version === "00" ? flags : (parseInt(flags, 16) & SAMPLED).toString(16).padStart(2, "0");
  return { traceId, parentId, flags: carried };
}

function randomHex(bytes: number): string {
  for (;;) {
    const hex = [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
    if (!ALL_ZEROS.test(hex)) return hex;
  }
}

/** This request's place in a trace: the caller's trace (or a fresh one) and a span of our own. */
export interface TraceContext {
  traceId: string;
  /** The caller's span, when it sent a valid `traceparent`. */
  parentId: string | null;
  /** Ours: the parent-id of anything we call, and what we echo. */
  spanId: string;
  flags: string;
  /** What became of the incoming header. */
  origin: "continued" | "invalid" | "absent";
}

export function continueTrace(header: string | null | undefined): TraceContext {
  const incoming = parseTraceparent(header);
  const spanId = randomHex(8);
  if (incoming) return { ...incoming, spanId, origin: "continued" };
  // A fresh trace is recorded (the request line is written for every request), hence sampled.
  return { traceId: randomHex(16), parentId: null, spanId, flags: "01", origin: header ? "invalid" : "absent" };
}

/** The `traceparent` naming our span, for the response and for anything we call within the trace. */
export const formatTraceparent = (trace: TraceContext) => `00-${trace.traceId}-${trace.spanId}-${trace.flags}`;
