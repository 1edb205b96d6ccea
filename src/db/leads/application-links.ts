/**
 * Application links (issue 44): SQL only. The partner's reads and writes are scoped to its account and
 * environment in the SQL; the business's reads go by the token's or the session's hash (the link is
 * its own credential) and are checked against the host's environment by the service.
 */
import { and, desc, eq, gt, inArray, sql, type SQL } from "drizzle-orm";
import type { Scope } from "../../domain/identity/caller";
import type { ApplicationLink } from "../../domain/leads/application-link";
import type { Database } from "../client";
import { insertWhere } from "../guarded";
import { applicationLinks, type ApplicationLinkRow } from "../schema/application-links";
import { leads } from "../schema/leads";

const LIVE_STATES = ["sent", "opened"] as const;

const toLink = (row: ApplicationLinkRow): ApplicationLink => ({
  id: row.id,
  leadId: row.leadId,
  organisationId: row.organisationId,
  environment: row.environment,
  state: row.state,
  submitMode: row.submitMode,
  locked: row.locked,
  returnUrl: row.returnUrl,
  expiresAt: row.expiresAt,
  createdAt: row.createdAt,
  openedAt: row.openedAt,
  completedAt: row.completedAt,
  revokedAt: row.revokedAt,
  sessionHash: row.sessionHash,
  sessionExpiresAt: row.sessionExpiresAt,
});

/** Ends every live link of a lead (a new link revokes the previous one; DELETE revokes). */
const revokeLinksOfLead = (db: Database, scope: Scope, leadId: string, at: string) =>
  db
    .update(applicationLinks)
    .set({ state: "revoked", revokedAt: at, sessionHash: null, sessionExpiresAt: null })
    .where(
      and(
        eq(applicationLinks.leadId, leadId),
        eq(applicationLinks.organisationId, scope.organisationId),
        eq(applicationLinks.environment, scope.environment),
        inArray(applicationLinks.state, LIVE_STATES),
      ),
    );

/**
 * A new link for a draft lead of the caller's account and environment, the previous live ones revoked
 * in the same batch. The insert is guarded on the lead (scope and draft state) in SQL: nothing is
 * written for another account's lead or a submitted one. Answers whether the link was written.
 */
export async function insertLinkRevokingOthers(db: Database, scope: Scope, link: ApplicationLink & { tokenHash: string }) {
  const guard = sql`exists (select 1 from ${leads} where ${leads.id} = ${link.leadId} and ${leads.organisationId} = ${scope.organisationId} and ${leads.environment} = ${scope.environment} and ${leads.state} = 'draft')`;
  const insert = insertWhere(db, applicationLinks, { ...link }, guard);
  const [, inserted] = await db.batch([revokeLinksOfLead(db, scope, link.leadId, link.createdAt), insert]);
  return (inserted as unknown as D1Result).meta.changes === 1;
}

export async function revokeLiveLinks(db: Database, scope: Scope, leadId: string, at: string) {
  const [result] = await db.batch([revokeLinksOfLead(db, scope, leadId, at)]);
  return (result as unknown as D1Result).meta.changes;
}

/** The lead's newest link, within the caller's scope. */
export async function latestLinkOfLead(db: Database, scope: Scope, leadId: string): Promise<ApplicationLink | null> {
  const row = await db
    .select()
    .from(applicationLinks)
    .where(and(eq(applicationLinks.leadId, leadId), eq(applicationLinks.organisationId, scope.organisationId), eq(applicationLinks.environment, scope.environment)))
    .orderBy(desc(applicationLinks.createdAt), desc(applicationLinks.id))
    .limit(1)
    .get();
  return row ? toLink(row) : null;
}

export async function findLinkByTokenHash(db: Database, tokenHash: string) {
  const row = await db.select().from(applicationLinks).where(eq(applicationLinks.tokenHash, tokenHash)).get();
  return row ? toLink(row) : null;
}

export async function findLinkBySessionHash(db: Database, sessionHash: string, at: string) {
  const row = await db
    .select()
    .from(applicationLinks)
    .where(and(eq(applicationLinks.sessionHash, sessionHash), gt(applicationLinks.sessionExpiresAt, at)))
    .get();
  return row ? toLink(row) : null;
}

/**
 * The link traded for a browser session: the session replaces any other (one browser per link at a
 * time), the first opening moves `sent` to `opened`. Only a live, unexpired link changes.
 */
export const openSessionUpdate = (db: Database, linkId: string, sessionHash: string, sessionExpiresAt: string, at: string) =>
  db
    .update(applicationLinks)
    .set({
      sessionHash,
      sessionExpiresAt,
      state: "opened",
      openedAt: sql`coalesce(${applicationLinks.openedAt}, ${at})`,
    })
    .where(and(eq(applicationLinks.id, linkId), inArray(applicationLinks.state, LIVE_STATES), gt(applicationLinks.expiresAt, at)));

/** True once this opening was the link's first (the guard of `lead.application_opened`). */
export const firstOpenedAt = (linkId: string, at: string) =>
  sql`exists (select 1 from ${applicationLinks} where ${applicationLinks.id} = ${linkId} and ${applicationLinks.openedAt} = ${at})`;

/** The business completed the application: only a live link completes, once, and only if `guard` (the lead's write) holds. */
export const completeLinkUpdate = (db: Database, linkId: string, at: string, guard: SQL) =>
  db
    .update(applicationLinks)
    .set({ state: "completed", completedAt: at })
    .where(and(eq(applicationLinks.id, linkId), inArray(applicationLinks.state, LIVE_STATES), gt(applicationLinks.expiresAt, at), guard));
