import { and, eq, isNull } from "drizzle-orm";
import { sideOf, type Database } from "../client";
import { runBatch } from "../batch";
import { portalAuditLog, portalMembers } from "../schema/portal";

export async function findMemberByEmail(db: Database, organisationId: string, email: string) {
  const [row] = await db
    .select()
    .from(portalMembers)
    .where(and(eq(portalMembers.organisationId, organisationId), eq(portalMembers.email, email), isNull(portalMembers.removedAt)))
    .limit(1);
  return row ?? null;
}

/** A member's own settings (display name, time zone), in one batch: only while they are a current member of the organisation. */
export async function updateMemberSettings(db: Database, member: { id: string; organisationId: string }, settings: { displayName: string | null; timeZone: string }) {
  await runBatch(db, [
    db
      .update(portalMembers)
      .set({ displayName: settings.displayName, timeZone: settings.timeZone })
      .where(and(eq(portalMembers.id, member.id), eq(portalMembers.organisationId, member.organisationId), isNull(portalMembers.removedAt))),
  ]);
}

/**
 * The display name of the member who opened a lead in the portal (its `lead.created` audit entry, in
 * the lead's organisation), for the client hub's "Your adviser"; null for a lead opened through the API
 * or by a member who set no name. Two reads, not a join: the entry is in the lead's database (written in
 * the batch that made the lead; a sandbox lead's in the sandbox's), the member in the control database.
 */
export async function leadOpenerName(db: Database, organisationId: string, leadId: string): Promise<string | null> {
  const openedBy = (side: Database) =>
    side
      .select({ memberId: portalAuditLog.memberId })
      .from(portalAuditLog)
      .where(and(eq(portalAuditLog.organisationId, organisationId), eq(portalAuditLog.action, "lead.created"), eq(portalAuditLog.target, leadId)))
      .limit(1);
  const [data, control] = [sideOf(db, "data"), sideOf(db, "control")];
  const [inData] = await openedBy(data);
  const entry = inData ?? (data === control ? undefined : (await openedBy(control))[0]);
  if (!entry) return null;
  const [member] = await db
    .select({ name: portalMembers.displayName })
    .from(portalMembers)
    .where(and(eq(portalMembers.id, entry.memberId), eq(portalMembers.organisationId, organisationId)))
    .limit(1);
  return member?.name ?? null;
}
