/**
 * The service's one way to write a log line: one JSON object per line, read
 * by Workers Logs and `wrangler tail` (docs/operations.md lists the fields).
 *
 * Values are flat primitives on purpose: no object can be handed over whole,
 * so no request body, payload, header set or row reaches the logs by accident.
 * Callers pass identifiers and codes only (request, organisation, delivery,
 * lead ids; statuses; reasons) — never a secret, a URL with its query, an
 * e-mail address, a name or a register number.
 *
 * The level picks the console method too, so the dashboard's own level
 * filter agrees with the line's `level`.
 */
import { loggableError } from "./loggable-error";

export type LogLevel = "info" | "warn" | "error";
export type LogValue = string | number | boolean | null | undefined;
export type LogFields = Record<string, LogValue>;

export function log(level: LogLevel, event: string, fields: LogFields = {}) {
  const line = JSON.stringify({ level, event, ...fields });
  // Looked up at each call, not captured once: tests observe the console as it is when the line is written.
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

/** An unexpected failure: what `loggableError` keeps of it (never drizzle's bound parameters), with the caller's ids. */
export function logError(event: string, error: unknown, fields: LogFields = {}, level: LogLevel = "error") {
  log(level, event, { ...fields, ...loggableError(error) });
}

/** Milliseconds to one decimal: precise enough to read, short enough to scan. */
export const roundMs = (ms: number) => Math.round(ms * 10) / 10;
