/** The lender's work queue: the deals waiting on its action, grouped by what it must do (domain/deals/work-queue.ts). */
import type { Deps } from "../deps";
import { countDealsAwaitingLender, dealsAwaitingLender } from "../../db/deals/work-queue";
import { dealSummary } from "../../domain/deals/view";
import { groupByStage, workStageOf } from "../../domain/deals/work-queue";
import type { Scope } from "../../domain/identity/caller";

/** At most this many deals are read for the queue page; the count in the navigation is exact. */
const WORK_QUEUE_LIMIT = 200;

export async function workQueue(deps: Deps, scope: Scope) {
  const { db } = deps;
  const [waiting, total] = await Promise.all([dealsAwaitingLender(db, scope, WORK_QUEUE_LIMIT), countDealsAwaitingLender(db, scope)]);
  const staged = waiting.filter((d) => workStageOf(d) !== null);
  return {
    total,
    groups: groupByStage(staged).map((g) => ({ stage: g.stage, deals: g.deals.map((d) => ({ ...dealSummary(d), waiting_since: d.updatedAt })) })),
  };
}

export const workQueueCount = (deps: Deps, scope: Scope) => countDealsAwaitingLender(deps.db, scope);
