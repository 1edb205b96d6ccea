/**
 * Invitations to the portal: issued by the operator API or by an
 * organisation's admin (the same function), opened by the invitee. The link's
 * token is random and shown once; D1 keeps its SHA-256 only.
 */
import type { Database } from "../../db/client";
import { findMemberByEmail } from "../../db/portal/members";
import { findInvitationByTokenHash, insertInvitation, listPendingInvitations, revokeInvitation } from "../../db/portal/invitations";
import { INVITATION_TTL_SECONDS, invitationPath, invitationUsable, normaliseEmail, type InvitationRequest } from "../../domain/portal/invitations";
import { randomToken, sha256Hex } from "../../lib/crypto";
import { Refusal } from "../../lib/refusal";
import { newId, nowIso } from "../../lib/ids";
import { requireOrganisation } from "../identity/organisations";

const nowSeconds = () => Math.floor(Date.now() / 1000);

export interface IssuedInvitation {
  id: string;
  organisationId: string;
  email: string;
  role: InvitationRequest["role"];
  /** The whole link, shown once. */
  url: string;
  expiresAt: string;
  createdAt: string;
}

/**
 * `invitedBy` is `operator` or the inviting member's id. An unknown
 * organisation is a 404; someone who is already a current member is a 409 on
 * `email` (an invitation could not add them twice). The new invitation
 * revokes, in the same batch, every other pending one for that email.
 */
export async function inviteMember(db: Database, publicUrl: string | undefined, organisationId: string, request: InvitationRequest, invitedBy: string): Promise<IssuedInvitation> {
  await requireOrganisation(db, organisationId);
  const email = normaliseEmail(request.email);
  if (await findMemberByEmail(db, organisationId, email)) throw new Refusal("conflict", "That person is already a member of this organisation.", { field: "email" });
  const token = randomToken(43);
  const createdAt = nowIso();
  const expiresAt = nowSeconds() + INVITATION_TTL_SECONDS;
  const id = newId("inv");
  await insertInvitation(db, {
    id,
    organisationId,
    email,
    role: request.role,
    tokenHash: await sha256Hex(token),
    invitedBy,
    expiresAt,
    acceptedAt: null,
    memberId: null,
    createdAt,
    revokedAt: null,
  });
  const base = (publicUrl ?? "http://localhost:8787").replace(/\/+$/, "");
  return { id, organisationId, email, role: request.role, url: `${base}${invitationPath(token)}`, expiresAt: new Date(expiresAt * 1000).toISOString(), createdAt };
}

/** The invitation a link opens, with its organisation; null when the link is unknown, used or expired (the visitor is told the same for all three). */
export async function openInvitation(db: Database, token: string) {
  if (token.length > 100) return null;
  const found = await findInvitationByTokenHash(db, await sha256Hex(token));
  if (!found || !invitationUsable(found.invitation, nowSeconds())) return null;
  return found;
}

export interface PendingInvitation {
  id: string;
  organisationId: string;
  email: string;
  role: InvitationRequest["role"];
  invitedBy: string;
  expiresAt: string;
  createdAt: string;
}

/** The organisation's invitations that can still be accepted (unknown organisation: 404). */
export async function pendingInvitationsOf(db: Database, organisationId: string): Promise<PendingInvitation[]> {
  await requireOrganisation(db, organisationId);
  const rows = await listPendingInvitations(db, organisationId, nowSeconds());
  return rows.map((r) => ({ ...r, expiresAt: new Date(r.expiresAt * 1000).toISOString() }));
}

/**
 * Revokes a pending invitation of this organisation with its audit entry, in
 * one batch. `by` is `operator` or the revoking member's id. Another
 * organisation's, a used or an already revoked invitation is a 404.
 */
export async function revokeInvitationOf(db: Database, organisationId: string, invitationId: string, by: { memberId: string; environment: "sandbox" | "live" }) {
  const revoked = await revokeInvitation(db, { organisationId, invitationId, at: nowIso(), by: by.memberId, auditId: newId("aud"), environment: by.environment });
  if (!revoked) throw new Refusal("not_found", "No such pending invitation.");
}
