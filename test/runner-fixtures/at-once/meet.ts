import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";

/**
 * Two suites that can only pass together: each leaves its mark in RENDEZVOUS_DIR and then waits (up to
 * 60 s, or MEET_WAIT_MS) for the other's. Run one after the other, the first would wait in vain and fail; so both
 * passing shows that `npm test` ran them at the same time, with no clock read by the assertion.
 */
export async function meet(me: string, other: string) {
  const dir = process.env.RENDEZVOUS_DIR;
  if (!dir) throw new Error("RENDEZVOUS_DIR is not set");
  writeFileSync(join(dir, me), me);
  const rounds = Number(process.env.MEET_WAIT_MS ?? 60_000) / 100;
  for (let i = 0; i < rounds && !existsSync(join(dir, other)); i++) await new Promise((r) => setTimeout(r, 100));
  expect(existsSync(join(dir, other)), `${other} never arrived`).toBe(true);
}
