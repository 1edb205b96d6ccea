/**
 * Sweeps a D1 fault over every call of one write: a clean run counts the
 * write's D1 calls and records what it changes; then, for each N, a fresh
 * fixture and the same write with the Nth D1 call failing. Each faulted run
 * must leave all of the clean run's change or none of it: never a part, never
 * an event without its state change.
 */
import { expect } from "vitest";
import type { ApiResponse } from "../helpers/api";
import { faultyEnv } from "../helpers/faults";
import { expectProblem } from "../helpers/seed";
import { changes, changeShape, snapshot, type TableChange } from "../helpers/storage-snapshot";

export interface WriteUnderTest<F> {
  /** Builds what the write needs, through the real bindings (never faulted). */
  setup: () => Promise<F>;
  /** The write, through the app's fetch with the given env. */
  write: (env: Cloudflare.Env, fixture: F) => Promise<ApiResponse>;
  /** The status of the clean run. */
  status: number;
  /** Event names the clean run writes (the sweep proves none is ever written alone). */
  events: string[];
  /**
   * Tables where a faulted run may add rows (at most this many) and nothing
   * else: an upload's pending markers, written before the bytes on purpose and swept later.
   */
  leftovers?: Record<string, number>;
  /** A web door (the hub, the portal): a failure is its HTML error page naming the request id, never problem+json. */
  page?: boolean;
}

export interface SweepOutcome {
  call: number;
  operation: string;
  /** "none": nothing changed (error answered); "all": the whole change committed before the fault. */
  left: "none" | "all";
  status: number;
}

/** Both databases' events: a sandbox write's are in the sandbox's (`sandbox:events`, test/helpers/storage-snapshot.ts). */
const eventNames = (change: Map<string, TableChange>) =>
  ["events", "sandbox:events"].flatMap((table) => change.get(table)?.added ?? []).map((row) => (JSON.parse(row) as { event: string }).event).sort();

export async function sweepD1Faults<F>(write: WriteUnderTest<F>): Promise<SweepOutcome[]> {
  const fixture = await write.setup();
  const before = await snapshot();
  const probe = faultyEnv();
  const clean = await write.write(probe.env, fixture);
  expect(clean.status, clean.text).toBe(write.status);
  const reference = changes(before, await snapshot());
  expect(eventNames(reference)).toEqual([...write.events].sort());
  const calls = probe.switches.d1.calls;
  expect(calls).toBeGreaterThan(0);

  const outcomes: SweepOutcome[] = [];
  for (let n = 1; n <= calls; n++) {
    const fx = await write.setup();
    const start = await snapshot();
    const faulty = faultyEnv({ d1: n });
    const res = await write.write(faulty.env, fx);
    const change = changes(start, await snapshot());
    const [failed] = faulty.switches.d1.failed;
    const where = `D1 call ${n} of ${calls} (${failed?.operation ?? "not reached"}): ${res.status} ${res.text.slice(0, 200)}`;
    const shape = changeShape(change);
    const committed = JSON.stringify(shape) === JSON.stringify(changeShape(reference));
    if (!failed) {
      // This run needed fewer calls (a cache the clean run filled): it must be the clean run again.
      expect(res.status, where).toBe(write.status);
      expect(committed, where).toBe(true);
      outcomes.push({ call: n, operation: "not reached", left: "all", status: res.status });
      continue;
    }
    if (committed) {
      outcomes.push({ call: n, operation: failed.operation, left: "all", status: res.status });
      continue;
    }
    // Nothing of the write may remain: no row of it, no event; only the declared leftovers.
    for (const [table, c] of change) {
      const allowed = write.leftovers?.[table.replace(/^sandbox:/, "")] ?? 0;
      expect({ table, added: c.added.length <= allowed, removed: c.removed.length }, where).toEqual({ table, added: true, removed: 0 });
    }
    expect(eventNames(change), where).toEqual([]);
    if (write.page) {
      expect(res.status, where).toBe(500);
      expect(res.text, where).toMatch(/^<!doctype html>/i);
      expect(res.text, where).toMatch(/req_[a-z0-9]+/);
    } else expectProblem(res, 500, "internal_error");
    outcomes.push({ call: n, operation: failed.operation, left: "none", status: res.status });
  }
  // The change commits at one call: every failure before it leaves nothing, every one after leaves it all.
  const firstCommitted = outcomes.findIndex((o) => o.left === "all");
  if (firstCommitted >= 0) expect(outcomes.slice(firstCommitted).every((o) => o.left === "all"), JSON.stringify(outcomes)).toBe(true);
  return outcomes;
}
