/**
 * Who the passkeys belong to (the WebAuthn relying party). The RP ID is the
 * host the member's browser is on (the request's hostname), so a passkey made
 * on api.example.com works there and nowhere else; the origins a ceremony may
 * come from are the request's own and PUBLIC_URL's (the same pair the
 * same-origin check of every portal form accepts).
 */
export const RELYING_PARTY_NAME = "Referral Funding Service";

export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

export function relyingPartyOf(requestUrl: string, publicUrl: string | undefined): RelyingParty {
  const request = new URL(requestUrl);
  const origins = new Set([request.origin]);
  if (publicUrl) origins.add(new URL(publicUrl).origin);
  return { id: request.hostname, name: RELYING_PARTY_NAME, origins: [...origins] };
}
