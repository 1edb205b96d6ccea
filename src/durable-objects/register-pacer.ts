import { DurableObject } from "cloudflare:workers";
import { FRESH_ALLOWANCE, spend, waitOf, type Allowance, type CallBudget } from "../registers/pacing";
import type { Bindings } from "../lib/env";

/** Slots held longer than this are taken back: the holder's invocation ended without releasing (crash, eviction). */
const SLOT_LEASE_MS = 120_000;

interface Held {
  allowance: Allowance;
  /** Slot id → when its lease ends (epoch ms, this object's clock). */
  slots: Record<string, number>;
}

/**
 * One register's allowance for one deployment key: named `<source>:<hash of the
 * registers' configuration>` by src/services/registers/pacer.ts. Every consumer invocation, in any
 * isolate, asks this one object before each call to the register and tells it when the register said
 * "wait", so running the REGISTER_LOOKUPS consumer with `max_concurrency` > 1 spends one budget, never
 * one per invocation. The rules are src/registers/pacing.ts's; this object holds the state. An object
 * handles one request at a time between its awaits, so counting needs no lock; the state is stored on
 * each change (before the answer leaves, the output gate's guarantee), so an evicted object resumes
 * with the window it had rather than a full budget.
 *
 * `now` comes from the caller (the lookup's clock) for the budget, as the in-memory pacer's does; slot
 * leases run on this object's own clock, since they bound how long a crashed holder keeps a slot.
 */
export class RegisterPacer extends DurableObject<Bindings> {
  private held: Held | undefined;
  private waiting: (() => void)[] = [];

  private async state(): Promise<Held> {
    this.held ??= (await this.ctx.storage.get<Held>("held")) ?? { allowance: FRESH_ALLOWANCE, slots: {} };
    return this.held;
  }

  private async save(held: Held) {
    this.held = held;
    await this.ctx.storage.put("held", held);
  }

  /** Seconds until the register may be called; null when a call may go now, and it is then counted. */
  async take(budget: CallBudget | null, now: number): Promise<number | null> {
    const held = await this.state();
    const { allowance, wait } = spend(held.allowance, budget ?? undefined, now);
    if (allowance !== held.allowance) await this.save({ ...held, allowance });
    return wait;
  }

  /** Seconds until the register may be called, nothing counted. */
  async blockedFor(budget: CallBudget | null, now: number): Promise<number | null> {
    return waitOf((await this.state()).allowance, budget ?? undefined, now);
  }

  /** The register asked us to wait until `until` (epoch ms): no call before it. */
  async block(until: number): Promise<void> {
    const held = await this.state();
    if (until > held.allowance.blockedUntil) await this.save({ ...held, allowance: { ...held.allowance, blockedUntil: until } });
  }

  /** A slot for one lookup once fewer than `limit` are held; waits (here, in the object) until one is released or lapses. */
  async acquire(limit: number): Promise<string> {
    for (;;) {
      const held = await this.state();
      const now = Date.now();
      const live = Object.fromEntries(Object.entries(held.slots).filter(([, until]) => until > now));
      if (Object.keys(live).length < limit) {
        const slot = crypto.randomUUID();
        await this.save({ ...held, slots: { ...live, [slot]: now + SLOT_LEASE_MS } });
        return slot;
      }
      const lapses = Math.min(...Object.values(live)) - now;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, lapses);
        this.waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async release(slot: string): Promise<void> {
    const held = await this.state();
    if (slot in held.slots) {
      const { [slot]: _released, ...slots } = held.slots;
      await this.save({ ...held, slots });
    }
    this.waiting.shift()?.();
  }
}
