import { and, eq } from "drizzle-orm";
import type { Database } from "../client";
import { organisations } from "../schema/identity";
import { portalInvitations } from "../schema/portal";

export type PortalInvitationRow = typeof portalInvitations.$inferSelect;

export async function insertInvitation(db: Database, row: PortalInvitationRow) {
  await db.insert(portalInvitations).values(row);
}

/** The invitation behind a link's token hash, with the organisation it opens (used or expired ones too: the caller decides). */
export async function findInvitationByTokenHash(db: Database, tokenHash: string) {
  const [row] = await db
    .select({ invitation: portalInvitations, organisation: { id: organisations.id, name: organisations.name, kind: organisations.kind } })
    .from(portalInvitations)
    .innerJoin(organisations, eq(organisations.id, portalInvitations.organisationId))
    .where(eq(portalInvitations.tokenHash, tokenHash))
    .limit(1);
  return row ?? null;
}

/** One organisation's invitation by id (never another's). */
export async function findInvitation(db: Database, organisationId: string, id: string) {
  const [row] = await db
    .select()
    .from(portalInvitations)
    .where(and(eq(portalInvitations.id, id), eq(portalInvitations.organisationId, organisationId)))
    .limit(1);
  return row ?? null;
}
