/** A WebAuthn challenge is answered within five minutes, once. */
export const CHALLENGE_TTL_SECONDS = 5 * 60;

export type ChallengePurpose = "register" | "sign_in";

export interface ChallengeState {
  purpose: ChallengePurpose;
  invitationId: string | null;
  expiresAt: number;
}

/** The challenge was issued for this very ceremony (and invitation) and has not expired. */
export const challengeAnswers = (challenge: ChallengeState, purpose: ChallengePurpose, invitationId: string | null, nowSeconds: number) =>
  challenge.purpose === purpose && challenge.invitationId === invitationId && challenge.expiresAt > nowSeconds;
