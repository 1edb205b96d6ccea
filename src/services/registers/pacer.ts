/**
 * The consumer's pacer: each register's allowance asked of its Durable Object (RegisterPacer), one per
 * register and deployment key, so parallel consumer invocations share one budget (src/registers/pacing.ts
 * has the rules). The object's name carries a hash of the registers' configuration, never the key itself.
 */
import type { SourcePacer } from "../../registers/context";
import { askedToWaitUntil, CALL_BUDGETS, IN_FLIGHT_PER_REGISTER, type CallBudget } from "../../registers/pacing";
import { sha256Hex } from "../../lib/crypto";
import type { Deps } from "../deps";

export function durablePacer({ env }: Pick<Deps, "env">, configuration: string, budgets: Readonly<Record<string, CallBudget>> = CALL_BUDGETS): SourcePacer {
  const namespace = env.REGISTER_PACER;
  const deployment = sha256Hex(configuration);
  const objectOf = async (source: string) => namespace.get(namespace.idFromName(`${source}:${await deployment}`));
  const budgetOf = (source: string) => budgets[source] ?? null;
  return {
    async take(source, now) {
      return (await objectOf(source)).take(budgetOf(source), now.getTime());
    },
    async blockedFor(source, now) {
      return (await objectOf(source)).blockedFor(budgetOf(source), now.getTime());
    },
    async observe(source, status, headers, now) {
      // Most answers say nothing about the allowance: the object is told only when one does.
      const until = askedToWaitUntil(status, headers, now);
      if (until !== null) await (await objectOf(source)).block(until);
    },
    async inFlight(source, work) {
      const pacer = await objectOf(source);
      const slot = await pacer.acquire(IN_FLIGHT_PER_REGISTER);
      try {
        return await work();
      } finally {
        await pacer.release(slot);
      }
    },
  };
}
