import type { DataEnvironment } from "../db/client";

/**
 * The database a queue message's row is in: its `environment`, or live's `DB` for a message without
 * one (sent before the sandbox had its own database, still in flight across that deploy) or with a value
 * no sender writes (docs/capacity.md, "The 100× design": the sandbox in its own database).
 */
export const environmentOfMessage = (body: unknown): DataEnvironment =>
  (body as { environment?: unknown } | null)?.environment === "sandbox" ? "sandbox" : "live";
