import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "./client";

/** One statement of a D1 batch. */
export type Statement = BatchItem<"sqlite">;

const changesOf = (result: unknown) => (result as D1Result).meta.changes;

/**
 * Runs `[guard, ...rest]` as one D1 batch (one implicit transaction) and answers how many rows
 * the guard changed. D1 has no interactive transactions, so the guard is a conditional update
 * (`UPDATE … WHERE state = …`) and the rest are written only when it wins (their own guards
 * check the token it wrote); 0 means another request got there first and nothing was written.
 *
 * `prelude` runs first in the same batch: rows the change stands on that are written with it or
 * not at all (a test deal's sandbox business, made by its first simulation). The answer is still
 * the guard's.
 */
export async function runGuardedBatch(db: Database, statements: readonly Statement[], prelude: readonly Statement[] = []): Promise<number> {
  const [guard, ...rest] = statements;
  if (!guard) throw new Error("runGuardedBatch needs the guard statement first.");
  const [first, ...others] = [...prelude, guard, ...rest];
  const results = await db.batch([first!, ...others]);
  return changesOf(results[prelude.length]);
}

/** Runs statements as one D1 batch (after `prelude`, as in `runGuardedBatch`); nothing to run is nothing written. */
export async function runBatch(db: Database, statements: readonly Statement[], prelude: readonly Statement[] = []): Promise<void> {
  const [first, ...rest] = [...prelude, ...statements];
  if (first) await db.batch([first, ...rest]);
}

/**
 * Runs one conditional statement as a batch of its own and answers how many rows it changed. A batch,
 * not a lone statement: a keyed request's database spends its Idempotency-Key in every batch it runs
 * (db/identity/idempotency.ts), so the change and the key commit together.
 */
export async function runGuarded(db: Database, statement: Statement): Promise<number> {
  const [result] = await db.batch([statement]);
  return changesOf(result);
}
