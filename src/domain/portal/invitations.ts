import type { PortalRole } from "./viewer";

/** An invitation link works for seven days, once. */
export const INVITATION_TTL_SECONDS = 7 * 24 * 60 * 60;

/** The path of an invitation link; the token is random and only its SHA-256 is stored. */
export const invitationPath = (token: string) => `/portal/invitations/${token}`;

export interface InvitationState {
  expiresAt: number;
  acceptedAt: string | null;
  revokedAt: string | null;
}

/** A link is usable until it is used, revoked or expires; used, revoked, expired and unknown links look the same to the visitor. */
export const invitationUsable = (invitation: InvitationState, nowSeconds: number) =>
  invitation.acceptedAt === null && invitation.revokedAt === null && invitation.expiresAt > nowSeconds;

export interface InvitationRequest {
  email: string;
  role: PortalRole;
  /** The name the member will go by (domain/portal/profile.ts); none: they may set it in their settings. */
  display_name?: string;
}

/** Emails are compared lower-cased: one person, one membership per organisation. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();
