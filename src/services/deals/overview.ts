/** A lender's pipeline at a glance: every `lender_status` with how many deals stand at it (zero included), in the status order. */
import type { Deps } from "../deps";
import { countDealsByLenderStatus } from "../../db/deals/counts";
import type { Scope } from "../../domain/identity/caller";
import { LENDER_STATUSES, type LenderStatus } from "../../domain/reference/values";

export async function dealsByLenderStatus(deps: Deps, scope: Scope): Promise<{ status: LenderStatus; count: number }[]> {
  const { db } = deps;
  const counted = new Map((await countDealsByLenderStatus(db, scope)).map((r) => [r.status, r.count]));
  return LENDER_STATUSES.map((status) => ({ status, count: counted.get(status) ?? 0 }));
}
