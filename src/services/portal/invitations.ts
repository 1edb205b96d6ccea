/**
 * Invitations to the portal: issued by the operator API or by an
 * organisation's admin (the same function), opened by the invitee. The link's
 * token is random and shown once; D1 keeps its SHA-256 only.
 */
import { findMemberByEmail } from "../../db/portal/members";
import { findCurrentMember } from "../../db/portal/roster";
import { findInvitationByTokenHash, insertInvitation, listPendingInvitations, revokeInvitation } from "../../db/portal/invitations";
import { INVITATION_TTL_SECONDS, invitationPath, invitationUsable, normaliseEmail, type InvitationRequest } from "../../domain/portal/invitations";
import { randomToken, sha256Hex } from "../../lib/crypto";
import { Refusal } from "../../lib/refusal";
import { newId } from "../../lib/ids";
import { requireOrganisation } from "../identity/organisations";
import { epochSeconds, type Deps } from "../deps";


/** Where invitation links start: the deployment's PUBLIC_URL, or the local default as links.ts has it. */
const publicBase = ({ env }: Deps) => (env.PUBLIC_URL ?? "http://localhost:8787").replace(/\/+$/, "");

export interface IssuedInvitation {
  id: string;
  organisationId: string;
  email: string;
  role: InvitationRequest["role"];
  /** Set on a new sign-in link: the member whose passkeys it replaces. */
  memberId: string | null;
  /** The whole link, shown once. */
  url: string;
  expiresAt: string;
  createdAt: string;
}

/**
 * `invitedBy` is `operator` or the inviting member's id. An unknown
 * organisation is `not_found`; someone who is already a current member is a `conflict` on
 * `email` (an invitation could not add them twice). The new invitation
 * revokes, in the same batch, every other pending one for that email.
 */
/** `audit`: a member's invitation from the portal is audited in the invitation's own batch (target: the invitation); the operator's is not. */
export async function inviteMember(
  deps: Deps,
  organisationId: string,
  request: InvitationRequest,
  invitedBy: string,
  audit?: { action: string; environment: "sandbox" | "live" },
): Promise<IssuedInvitation> {
  const { db } = deps;
  await requireOrganisation(deps, organisationId);
  const email = normaliseEmail(request.email);
  if (await findMemberByEmail(db, organisationId, email)) throw new Refusal("conflict", "That person is already a member of this organisation.", { field: "email" });
  return issue(deps, organisationId, { email, role: request.role }, invitedBy, null, audit);
}

/**
 * A new sign-in link for a current member who lost their passkey. The invitation carries the member's
 * id from the start (`member_id`, set at issue only for these), so its acceptance re-enrols that
 * member: a new passkey, and the old passkeys and sessions deleted in the same batch
 * (`reenrolMember`); the member's id and role stay. Like any invitation it revokes the email's other
 * pending ones, and its audit entry (`member.reinvited`, target: the invitation) is written in the
 * same batch. Another organisation's or a removed member is `not_found`.
 *
 * Who may issue one: an admin of the organisation for a member whose role is
 * `member`; only the operator for an admin (`by.memberId` `operator`), since the link takes over
 * whoever it names, and an admin's click alone must not make another admin's account theirs. An
 * admin asking for an admin's, or their own (they are signed in with a passkey), is a `conflict`.
 */
export async function reinviteMember(deps: Deps, by: { organisationId: string; memberId: string; environment: "sandbox" | "live" }, memberId: string): Promise<IssuedInvitation> {
  await requireOrganisation(deps, by.organisationId);
  const member = await findCurrentMember(deps.db, by.organisationId, memberId);
  if (!member) throw new Refusal("not_found", "No such member.");
  if (by.memberId !== "operator") {
    if (member.id === by.memberId) throw new Refusal("conflict", "You are signed in with your passkey already; if you lose it, the operator can send you a new link.", { field: "member" });
    if (member.role === "admin") {
      throw new Refusal(
        "conflict",
        `${member.email} is an admin: a new sign-in link replaces an admin's passkeys, so only the operator makes one, after confirming with them that they lost theirs. Nothing was issued.`,
        { field: "member" },
      );
    }
  }
  return issue(deps, by.organisationId, { email: member.email, role: member.role }, by.memberId, member.id, { action: "member.reinvited", environment: by.environment });
}

async function issue(
  deps: Deps,
  organisationId: string,
  request: InvitationRequest,
  invitedBy: string,
  memberId: string | null,
  audit?: { action: string; environment: "sandbox" | "live" },
): Promise<IssuedInvitation> {
  const token = randomToken(43);
  const now = deps.clock();
  const createdAt = now.toISOString();
  const expiresAt = Math.floor(now.getTime() / 1000) + INVITATION_TTL_SECONDS;
  const id = newId("inv");
  await insertInvitation(
    deps.db,
    {
      id,
      organisationId,
      email: request.email,
      role: request.role,
      tokenHash: await sha256Hex(token),
      invitedBy,
      expiresAt,
      acceptedAt: null,
      memberId,
      createdAt,
      revokedAt: null,
    },
    audit ? { id: newId("aud"), organisationId, memberId: invitedBy, environment: audit.environment, action: audit.action, target: id, at: createdAt } : undefined,
  );
  return {
    id,
    organisationId,
    email: request.email,
    role: request.role,
    memberId,
    url: `${publicBase(deps)}${invitationPath(token)}`,
    expiresAt: new Date(expiresAt * 1000).toISOString(),
    createdAt,
  };
}

/** The invitation a link opens, with its organisation; null when the link is unknown, used or expired (the visitor is told the same for all three). */
export async function openInvitation(deps: Deps, token: string) {
  if (token.length > 100) return null;
  const found = await findInvitationByTokenHash(deps.db, await sha256Hex(token));
  if (!found || !invitationUsable(found.invitation, epochSeconds(deps))) return null;
  return found;
}

export interface PendingInvitation {
  id: string;
  organisationId: string;
  email: string;
  role: InvitationRequest["role"];
  /** Set on a new sign-in link: the member whose passkeys it replaces. */
  memberId: string | null;
  invitedBy: string;
  /** The issuing member's email; null for the operator's (or a member the organisation no longer knows). */
  issuerEmail: string | null;
  expiresAt: string;
  createdAt: string;
}

/** The organisation's invitations that can still be accepted (unknown organisation: `not_found`). */
export async function pendingInvitationsOf(deps: Deps, organisationId: string): Promise<PendingInvitation[]> {
  await requireOrganisation(deps, organisationId);
  const rows = await listPendingInvitations(deps.db, organisationId, epochSeconds(deps));
  return rows.map((r) => ({ ...r, expiresAt: new Date(r.expiresAt * 1000).toISOString() }));
}

/**
 * Revokes a pending invitation of this organisation with its audit entry, in
 * one batch. `by` is `operator` or the revoking member's id. Another
 * organisation's, a used or an already revoked invitation is `not_found`.
 */
export async function revokeInvitationOf({ db, clock }: Deps, organisationId: string, invitationId: string, by: { memberId: string; environment: "sandbox" | "live" }) {
  const revoked = await revokeInvitation(db, { organisationId, invitationId, at: clock().toISOString(), by: by.memberId, auditId: newId("aud"), environment: by.environment });
  if (!revoked) throw new Refusal("not_found", "No such pending invitation.");
}
