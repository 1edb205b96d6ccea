/**
 * What waits on a partner across its leads (issue 45 item 2, the overview): presented offers, open
 * document requests and the hub links of open leads, each read scoped in SQL to the partner's
 * organisation and environment (never a lender's test business).
 */
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "../client";
import type { Scope } from "../../domain/identity/caller";
import { offers } from "../schema/deals";
import { documentRequests } from "../schema/documents";
import { hubLinks } from "../schema/hub-links";
import { leads } from "../schema/leads";

const ofPartner = (scope: Scope) => and(eq(leads.organisationId, scope.organisationId), eq(leads.environment, scope.environment), isNull(leads.testDealRef));
const leadColumns = { leadId: leads.id, reference: leads.reference, business: leads.business };

/** Offers the client can still take, on leads still taking offers, soonest to expire first. */
export async function presentedOffersOfPartner(db: Database, scope: Scope, openStates: readonly string[]) {
  return db
    .select({ ...leadColumns, offerId: offers.id, expiresAt: offers.expiresAt })
    .from(offers)
    .innerJoin(leads, eq(leads.id, offers.leadId))
    .where(and(ofPartner(scope), inArray(leads.state, [...openStates]), eq(offers.state, "presented"), eq(offers.superseded, false)))
    .orderBy(asc(sql`coalesce(${offers.expiresAt}, '9999')`), asc(leads.reference))
    .all();
}

/** Document requests a lender made that nobody has answered yet, per lead. */
export async function openRequestsOfPartner(db: Database, scope: Scope) {
  return db
    .select({ ...leadColumns, requests: sql<number>`count(*)`, since: sql<string>`min(${documentRequests.requestedAt})` })
    .from(documentRequests)
    .innerJoin(leads, eq(leads.id, documentRequests.leadId))
    .where(and(ofPartner(scope), eq(documentRequests.status, "requested"), eq(documentRequests.environment, scope.environment)))
    .groupBy(leads.id)
    .orderBy(asc(sql`min(${documentRequests.requestedAt})`))
    .all();
}

/** When each open lead's hub link was issued (its first link: when the lead was opened). */
export async function hubLinksOfPartner(db: Database, scope: Scope, openStates: readonly string[]) {
  return db
    .select({ ...leadColumns, issuedAt: sql<string>`coalesce(${hubLinks.issuedAt}, ${leads.createdAt})`, generation: sql<number>`coalesce(${hubLinks.generation}, 0)` })
    .from(leads)
    .leftJoin(hubLinks, eq(hubLinks.leadId, leads.id))
    .where(and(ofPartner(scope), inArray(leads.state, [...openStates])))
    .all();
}
