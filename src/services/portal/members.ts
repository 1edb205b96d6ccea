/**
 * An organisation's members as its admins see them: the list, removal (which
 * ends the member's sessions in the same batch, so they are out at once) and
 * the audit log, newest first and keyset-paged. Always one organisation's,
 * in SQL: another organisation's member id finds nothing (`not_found`).
 */
import { auditPage } from "../../db/portal/audit";
import { updateMemberSettings } from "../../db/portal/members";
import { changeMemberRole, findCurrentMember, listMembers, memberEmailsOf, removeMember } from "../../db/portal/roster";
import type { PortalRole, PortalViewer } from "../../domain/portal/viewer";
import { nextMergedCursor, readMergedCursor } from "../../lib/cursor";
import { Refusal } from "../../lib/refusal";
import { signingSecretOf } from "../../lib/signing-secret";
import { newId } from "../../lib/ids";
import { sideOf } from "../../db/client";
import { depsIn, isoNow, type Deps } from "../deps";

export const membersOf = ({ db }: Deps, viewer: Pick<PortalViewer, "organisationId">) => listMembers(db, viewer.organisationId);

export async function removeMemberOf(deps: Deps, viewer: PortalViewer, memberId: string) {
  if (memberId === viewer.memberId) throw new Refusal("conflict", "You cannot remove yourself; ask another admin.", { field: "member" });
  const removed = await removeMember(deps.db, {
    organisationId: viewer.organisationId,
    memberId,
    at: isoNow(deps),
    audit: { id: newId("aud"), memberId: viewer.memberId, environment: viewer.environment },
  });
  if (removed) return;
  // Nothing written: say why (the batch decided; these reads only explain).
  const actor = await findCurrentMember(deps.db, viewer.organisationId, viewer.memberId);
  if (actor?.role !== "admin") throw new Refusal("conflict", `You are no longer an admin of ${viewer.organisationName}, so nobody was removed.`, { field: "member" });
  throw new Refusal("not_found", "No such member.");
}

/** A current member of the viewer's organisation, for the role question; another organisation's or a removed one is `not_found`. */
export async function memberOf({ db }: Deps, viewer: Pick<PortalViewer, "organisationId">, memberId: string) {
  const member = await findCurrentMember(db, viewer.organisationId, memberId);
  if (!member) throw new Refusal("not_found", "No such member.");
  return member;
}

/**
 * Gives a current member of the viewer's organisation another role, audited in the same batch
 * (`member.role_changed_to_admin|member`). The member's sessions read the role from the member
 * row on every request, so open pages hold the new role at once. Refused: no such current member
 * here (`not_found`), the role they already have (`conflict`), or demoting the organisation's only admin (`conflict`,
 * oneself included: someone must be left to manage members).
 */
export async function changeMemberRoleOf(deps: Deps, viewer: PortalViewer, memberId: string, role: PortalRole) {
  const changed = await changeMemberRole(deps.db, {
    organisationId: viewer.organisationId,
    memberId,
    role,
    at: isoNow(deps),
    audit: { id: newId("aud"), memberId: viewer.memberId, environment: viewer.environment },
  });
  if (changed) return;
  // Nothing written: say why (the batch decided; this read only explains).
  const member = await memberOf(deps, viewer, memberId);
  if (member.role === role) throw new Refusal("conflict", `${member.email} is already ${role === "admin" ? "an admin" : "a member"}.`, { field: "role" });
  throw new Refusal("conflict", `${member.email} is the only admin of ${viewer.organisationName}: make another member an admin first, so someone can still manage members.`, { field: "role" });
}

export const AUDIT_PAGE_SIZE = 50;

/**
 * The audit log's databases, each with its rank in the merged order: the control database (member, key
 * and invitation changes of both environments, and live's data actions: live data shares `DB`) and the
 * sandbox's data database (sandbox data actions, written in their own batches: db/placement.ts).
 */
function auditDatabases(deps: Deps) {
  const sandbox = deps.environment === "sandbox" ? deps : depsIn(deps, "sandbox");
  return [
    { db: sideOf(deps.db, "control"), rank: 1 },
    { db: sideOf(sandbox.db, "data"), rank: 0 },
  ];
}

/** Newest first across the databases the log is in (`auditDatabases`), merged by (at, rank, rowid) and paged by one signed position. */
export async function auditLogOf(deps: Deps, viewer: Pick<PortalViewer, "organisationId">, cursor: string | undefined, limit = AUDIT_PAGE_SIZE) {
  const cursorScope = `portal-audit:${viewer.organisationId}`;
  const signingSecret = signingSecretOf(deps.env);
  const after = await readMergedCursor(cursor, cursorScope, signingSecret);
  const [pages, members] = await Promise.all([
    Promise.all(auditDatabases(deps).map(async ({ db, rank }) => (await auditPage(db, viewer.organisationId, after, limit + 1, rank)).map((row) => ({ ...row, database: rank })))),
    memberEmailsOf(deps.db, viewer.organisationId),
  ]);
  const rows = pages.flat().sort((a, b) => (a.at !== b.at ? (a.at < b.at ? 1 : -1) : b.database - a.database || b.seq - a.seq));
  const emails = new Map(members.map((m) => [m.id, m.email]));
  const entries = rows.slice(0, limit);
  const last = entries[entries.length - 1];
  return {
    entries: entries.map(({ database: _, ...e }) => ({ ...e, memberEmail: emails.get(e.memberId) ?? null })),
    nextCursor: await nextMergedCursor(last ? { createdAt: last.at, seq: last.seq, database: last.database } : undefined, rows.length > limit, cursorScope, signingSecret),
  };
}

/** The member's own settings: their display name (null clears it) and the zone their portal times are shown in. */
export const saveOwnSettings = ({ db }: Deps, viewer: Pick<PortalViewer, "memberId" | "organisationId">, settings: { displayName: string | null; timeZone: string }) =>
  updateMemberSettings(db, { id: viewer.memberId, organisationId: viewer.organisationId }, settings);
