import { and, count, eq, gte, isNull } from "drizzle-orm";
import type { Scope } from "../../domain/identity/caller";
import type { Database } from "../client";
import { leads } from "../schema/leads";

/**
 * How many of the scope's leads were opened since `since`, per state (one grouped read on the scope's
 * created-at index). The sandbox business behind a lender's test deal is no lead, as in listLeadsQuery.
 */
export async function countLeadsByState(db: Database, scope: Scope, since: string) {
  return countLeadsByStateQuery(db, scope, since).all();
}

export function countLeadsByStateQuery(db: Database, scope: Scope, since: string) {
  return db
    .select({ state: leads.state, leads: count() })
    .from(leads)
    .where(and(eq(leads.organisationId, scope.organisationId), eq(leads.environment, scope.environment), gte(leads.createdAt, since), isNull(leads.testDealRef)))
    .groupBy(leads.state);
}
