/**
 * An organisation's members as its admins see them: the list, removal (which
 * ends the member's sessions in the same batch, so they are out at once) and
 * the audit log, newest first and keyset-paged. Always one organisation's,
 * in SQL: another organisation's member id finds nothing (404).
 */
import type { Database } from "../../db/client";
import { auditPage } from "../../db/portal/audit";
import { listMembers, memberEmailsOf, removeMember } from "../../db/portal/roster";
import type { PortalViewer } from "../../domain/portal/viewer";
import { nextKeysetCursor, readKeysetCursor } from "../../lib/cursor";
import { Refusal } from "../../lib/refusal";
import { newId, nowIso } from "../../lib/ids";

export const membersOf = (db: Database, viewer: Pick<PortalViewer, "organisationId">) => listMembers(db, viewer.organisationId);

export async function removeMemberOf(db: Database, viewer: PortalViewer, memberId: string) {
  if (memberId === viewer.memberId) throw new Refusal("conflict", "You cannot remove yourself; ask another admin.", { field: "member" });
  const removed = await removeMember(db, {
    organisationId: viewer.organisationId,
    memberId,
    at: nowIso(),
    audit: { id: newId("aud"), memberId: viewer.memberId, environment: viewer.environment },
  });
  if (!removed) throw new Refusal("not_found", "No such member.");
}

export const AUDIT_PAGE_SIZE = 50;

export async function auditLogOf(db: Database, viewer: Pick<PortalViewer, "organisationId">, cursor: string | undefined, signingSecret: string, limit = AUDIT_PAGE_SIZE) {
  const cursorScope = `portal-audit:${viewer.organisationId}`;
  const after = await readKeysetCursor(cursor, cursorScope, signingSecret);
  const [rows, members] = await Promise.all([
    auditPage(db, viewer.organisationId, after, limit + 1),
    memberEmailsOf(db, viewer.organisationId),
  ]);
  const emails = new Map(members.map((m) => [m.id, m.email]));
  const entries = rows.slice(0, limit);
  const last = entries[entries.length - 1];
  return {
    entries: entries.map((e) => ({ ...e, memberEmail: emails.get(e.memberId) ?? null })),
    nextCursor: await nextKeysetCursor(last ? { createdAt: last.at, seq: last.seq } : undefined, rows.length > limit, cursorScope, signingSecret),
  };
}
