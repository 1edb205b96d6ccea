import { and, asc, eq, gt, isNull, ne, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { runGuardedBatch } from "../batch";
import type { Database } from "../client";
import { insertWhere } from "../guarded";
import { organisations } from "../schema/identity";
import { portalAuditLog, portalInvitations, portalMembers } from "../schema/portal";
import { writeOrder } from "../write-order";

export type PortalInvitationRow = typeof portalInvitations.$inferSelect;

/** Unused and not revoked (expiry is the caller's: an expired link is refused when opened). */
const stillPending = and(isNull(portalInvitations.acceptedAt), isNull(portalInvitations.revokedAt));

/**
 * Revokes every pending invitation of this organisation for `email`, except
 * `keep`: one person has at most one working link, so an earlier link with
 * another role cannot be used after a newer one.
 */
export const revokeOtherInvitations = (db: Database, organisationId: string, email: string | SQL, at: string, keep: string | null, guard?: SQL) =>
  db
    .update(portalInvitations)
    .set({ revokedAt: at })
    .where(
      and(
        eq(portalInvitations.organisationId, organisationId),
        typeof email === "string" ? eq(portalInvitations.email, email) : sql`${portalInvitations.email} = ${email}`,
        stillPending,
        keep ? ne(portalInvitations.id, keep) : undefined,
        guard,
      ),
    );

/**
 * Revokes every pending link this organisation's member issued, invitations and new sign-in links alike:
 * written in the batch that removes the member or takes their admin role, so a
 * link outlives nobody's right to issue it.
 */
export const revokeInvitationsIssuedBy = (db: Database, organisationId: string, memberId: string, at: string, guard: SQL) =>
  db
    .update(portalInvitations)
    .set({ revokedAt: at })
    .where(and(eq(portalInvitations.organisationId, organisationId), eq(portalInvitations.invitedBy, memberId), stillPending, guard));

/**
 * The condition an acceptance reads inside its batch: the link's issuer could still
 * issue it, being the operator or a current admin of the organisation.
 */
export const issuerStillAdmin = (invitationId: string) =>
  sql`exists (select 1 from ${portalInvitations} as issued where issued.id = ${invitationId} and (issued.invited_by = 'operator' or exists (
    select 1 from ${portalMembers} as issuer where issuer.id = issued.invited_by and issuer.organisation_id = issued.organisation_id
      and issuer.removed_at is null and issuer.role = 'admin')))`;

type AuditEntry = typeof portalAuditLog.$inferInsert;

/** Writes the invitation (with its audit entry when given) and revokes every other pending one for the same email, in one batch. */
export async function insertInvitation(db: Database, row: PortalInvitationRow, audit?: AuditEntry) {
  await db.batch([
    revokeOtherInvitations(db, row.organisationId, row.email, row.createdAt, row.id),
    db.insert(portalInvitations).values(row),
    ...(audit ? [db.insert(portalAuditLog).values(audit)] : []),
  ]);
}

/** The invitation behind a link's token hash, with the organisation it opens (used, revoked or expired ones too: the caller decides). */
export async function findInvitationByTokenHash(db: Database, tokenHash: string) {
  const [row] = await db
    .select({ invitation: portalInvitations, organisation: { id: organisations.id, name: organisations.name, kind: organisations.kind } })
    .from(portalInvitations)
    .innerJoin(organisations, eq(organisations.id, portalInvitations.organisationId))
    .where(eq(portalInvitations.tokenHash, tokenHash))
    .limit(1);
  return row ?? null;
}

const issuers = alias(portalMembers, "issuers");

/**
 * One organisation's invitations that can still be accepted, oldest first (never the token hash), each
 * with the member it would re-enrol (`memberId`, a new sign-in link) and its issuer's email (null for the operator's).
 */
export async function listPendingInvitations(db: Database, organisationId: string, nowSeconds: number) {
  return db
    .select({
      id: portalInvitations.id,
      organisationId: portalInvitations.organisationId,
      email: portalInvitations.email,
      role: portalInvitations.role,
      memberId: portalInvitations.memberId,
      invitedBy: portalInvitations.invitedBy,
      issuerEmail: issuers.email,
      expiresAt: portalInvitations.expiresAt,
      createdAt: portalInvitations.createdAt,
    })
    .from(portalInvitations)
    .leftJoin(issuers, and(eq(issuers.id, portalInvitations.invitedBy), eq(issuers.organisationId, portalInvitations.organisationId)))
    .where(and(eq(portalInvitations.organisationId, organisationId), stillPending, gt(portalInvitations.expiresAt, nowSeconds)))
    .orderBy(asc(portalInvitations.createdAt), asc(writeOrder(portalInvitations)));
}

export interface Revocation {
  organisationId: string;
  invitationId: string;
  at: string;
  /** `operator` or the revoking member's id. */
  by: string;
  auditId: string;
  environment: "sandbox" | "live";
}

/**
 * Revokes one pending invitation of this organisation, with its audit entry,
 * in one batch; false when there is no such pending invitation here (another
 * organisation's id, a used or an already revoked one).
 */
export async function revokeInvitation(db: Database, r: Revocation): Promise<boolean> {
  const revokedNow = sql`exists (select 1 from ${portalInvitations} where ${portalInvitations.id} = ${r.invitationId} and ${portalInvitations.revokedAt} = ${r.at})`;
  const changed = await runGuardedBatch(db, [
    db
      .update(portalInvitations)
      .set({ revokedAt: r.at })
      .where(and(eq(portalInvitations.id, r.invitationId), eq(portalInvitations.organisationId, r.organisationId), stillPending)),
    insertWhere(
      db,
      portalAuditLog,
      { id: r.auditId, organisationId: r.organisationId, memberId: r.by, environment: r.environment, action: "invitation.revoked", target: r.invitationId, at: r.at },
      revokedNow,
    ),
  ]);
  return changed === 1;
}
