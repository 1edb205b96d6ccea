/** The lender's work queue: the deals waiting on its action, grouped by what it must do (domain/deals/work-queue.ts). */
import type { Deps } from "../deps";
import { countDealsAwaitingLender, dealsAwaitingLender } from "../../db/deals/work-queue";
import { dealSummary } from "../../domain/deals/view";
import { ageInWords, groupByStage, workStageOf } from "../../domain/deals/work-queue";
import { isoNow } from "../deps";
import { colleaguesOf } from "../../db/deals/working-set";
import type { Scope } from "../../domain/identity/caller";

/** At most this many deals are read for the queue page; the count in the navigation is exact. */
const WORK_QUEUE_LIMIT = 200;

/** `mine`: the member whose assigned deals alone are listed (the "Mine" filter); the total stays the lender's. */
export async function workQueue(deps: Deps, scope: Scope, mine?: string) {
  const { db } = deps;
  const [waiting, total, colleagues] = await Promise.all([dealsAwaitingLender(db, scope, WORK_QUEUE_LIMIT, mine), countDealsAwaitingLender(db, scope), colleaguesOf(db, scope)]);
  const staged = waiting.filter((d) => workStageOf(d, d.signals) !== null);
  const now = isoNow(deps);
  const who = (id: string | null) => (id ? (colleagues.find((m) => m.id === id) ?? null) : null);
  return {
    total,
    shown: staged.length,
    groups: groupByStage(staged).map((g) => ({
      stage: g.stage,
      deals: g.deals.map((d) => ({ ...dealSummary(d), waiting_since: d.updatedAt, age: ageInWords(d.createdAt, now), assignee: who(d.assigneeMemberId) })),
    })),
  };
}

export const workQueueCount = (deps: Deps, scope: Scope) => countDealsAwaitingLender(deps.db, scope);
