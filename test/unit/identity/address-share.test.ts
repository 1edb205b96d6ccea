/**
 * Issue 39 item 5: PUBLISHABLE_SHARE_PER_ADDRESS, the part of a publishable key's minute one client
 * address may use. The behaviour (a bot refused, other visitors served, the key's 120 kept) is in
 * test/rate-limit.test.ts; this is how the setting is read.
 */
import { describe, expect, it } from "vitest";
import { addressShareOf } from "../../../src/domain/identity/key-state";

const DEFAULT_ADDRESS_SHARE = 30;

describe("a publishable key's share per address (addressShareOf)", () => {
  it("is a quarter of the spec's 120 by default", () => {
    expect(addressShareOf(undefined, 120)).toBe(30);
  });

  it("takes a whole number from 1 up", () => {
    expect(addressShareOf("1", 120)).toBe(1);
    expect(addressShareOf("45", 120)).toBe(45);
    expect(addressShareOf(" 20 ", 120)).toBe(20);
  });

  it.each(["", "  ", "0", "-5", "2.5", "thirty", "NaN", "Infinity"])("falls back to the default for %j", (raw) => {
    expect(addressShareOf(raw, 120)).toBe(DEFAULT_ADDRESS_SHARE);
  });

  it("is never more than the key's own limit", () => {
    expect(addressShareOf("500", 120)).toBe(120);
    expect(addressShareOf(undefined, 10)).toBe(10);
    // The benchmarks raise the limit; the share stays what it says.
    expect(addressShareOf("30", 100_000_000)).toBe(30);
  });
});
