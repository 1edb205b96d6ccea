/**
 * What of an unexpected error may go to the logs. drizzle's query errors put
 * the bound parameters in their message (and so in the stack's first line):
 * names, e-mail addresses, sealed secrets. Only the SQL with its placeholders,
 * the cause and the call sites are kept.
 */
export function loggableError(error: unknown): { error: string; query?: string; cause?: string; stack?: string } {
  if (!(error instanceof Error)) return { error: String(error) };
  const frames = error.stack?.split("\n").filter((line) => line.trimStart().startsWith("at ")).join("\n");
  const query = (error as { query?: unknown }).query;
  if (typeof query === "string" && "params" in error) {
    return { error: "D1 query failed", query, cause: String((error as { cause?: unknown }).cause), stack: frames };
  }
  return { error: String(error), stack: frames };
}
