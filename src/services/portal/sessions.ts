/**
 * Portal sessions: the cookie carries a random token, D1 keeps its SHA-256, so
 * a session can be ended server-side (sign-out, member removal) and a stolen
 * cookie dies with it. Sessions end after twelve idle hours, and 7 days after they began (an
 * admin's 12 hours).
 */
import { endSession, findLiveSession, insertSession, setSessionEnvironment, touchSession } from "../../db/portal/sessions";
import { ENVIRONMENTS, type Environment } from "../../domain/identity/keys";
import { sessionExpired, type PortalViewer } from "../../domain/portal/viewer";
import { hmacSha256, randomToken, sha256Hex, timingSafeEqual, toHex } from "../../lib/crypto";
import { signingSecretOf } from "../../lib/signing-secret";
import { epochSeconds, isoNow, type Deps } from "../deps";

/** Opens a session for a member who has just proved a passkey (or registered one); answers the cookie's token. */
export async function openSession(deps: Deps, member: { id: string; organisationId: string }): Promise<string> {
  const token = randomToken(48);
  await insertSession(deps.db, {
    tokenHash: await sha256Hex(token),
    memberId: member.id,
    organisationId: member.organisationId,
    createdAt: isoNow(deps),
    lastSeenAt: epochSeconds(deps),
    // Opened by a passkey just proved (a sign-in, an enrolment): the step-up actions need no second one yet.
    passkeyVerifiedAt: epochSeconds(deps),
    endedAt: null,
  });
  return token;
}

/** The viewer behind a cookie token, or null when the session is unknown, ended, idle too long, or its member removed. */
export async function viewerOfSession(deps: Deps, token: string): Promise<PortalViewer | null> {
  const { db } = deps;
  const sessionId = await sha256Hex(token);
  const row = await findLiveSession(db, sessionId);
  const now = epochSeconds(deps);
  if (!row || sessionExpired(row.session.lastSeenAt, now, row.session.createdAt, row.member.role)) return null;
  // One write a minute at most: a page view need not write.
  if (now - row.session.lastSeenAt >= 60) await touchSession(db, sessionId, now);
  return {
    memberId: row.member.id,
    email: row.member.email,
    role: row.member.role,
    organisationId: row.organisation.id,
    organisationName: row.organisation.name,
    organisationKind: row.organisation.kind,
    environment: row.session.environment,
    sessionId,
    passkeyVerifiedAt: row.session.passkeyVerifiedAt,
  };
}

export const signOut = (deps: Deps, viewer: Pick<PortalViewer, "sessionId">) => endSession(deps.db, viewer.sessionId, isoNow(deps));

/** Switches the session, and remembers the choice as the member's last environment (a new sign-in starts there). */
export const switchEnvironment = ({ db }: Deps, viewer: Pick<PortalViewer, "sessionId" | "memberId" | "organisationId">, environment: Environment) =>
  setSessionEnvironment(db, { tokenHash: viewer.sessionId, memberId: viewer.memberId, organisationId: viewer.organisationId }, environment);

/**
 * The form token every portal form carries: `<environment>.<nonce>.<hmac>`, the HMAC of the
 * session, the environment the page was rendered for and a random nonce (one per rendered page)
 * under the service's signing secret. Beside the same-origin check it refuses a forged cross-site
 * post even from a browser that sends no Origin or Sec-Fetch-Site; the environment lets the portal
 * refuse a form rendered for sandbox once the session looks at live, and the
 * nonce makes each rendered form single-use for its action (item 8, `services/portal/form-uses.ts`).
 */
export async function formTokenOf({ env }: Deps, viewer: Pick<PortalViewer, "sessionId" | "environment">, nonce = randomToken(20)) {
  const mac = toHex(await hmacSha256(signingSecretOf(env), `portal-form:${viewer.sessionId}:${viewer.environment}:${nonce}`));
  return `${viewer.environment}.${nonce}.${mac}`;
}

export interface PresentedFormToken {
  environment: Environment;
  nonce: string;
}

/** The token's environment and nonce when it is this session's and untampered; null otherwise. */
export async function openFormToken(deps: Deps, viewer: Pick<PortalViewer, "sessionId">, presented: string | undefined): Promise<PresentedFormToken | null> {
  const parts = presented?.split(".") ?? [];
  if (parts.length !== 3) return null;
  const [environment, nonce, mac] = parts as [string, string, string];
  if (!(ENVIRONMENTS as readonly string[]).includes(environment) || !/^[0-9a-z]{8,64}$/.test(nonce)) return null;
  const expected = await formTokenOf(deps, { sessionId: viewer.sessionId, environment: environment as Environment }, nonce);
  return timingSafeEqual(expected, presented!) ? { environment: environment as Environment, nonce } : null;
}
