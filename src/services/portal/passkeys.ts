/**
 * The two WebAuthn ceremonies, through @simplewebauthn/server (which runs on
 * crypto.subtle, so in workerd as in a browser):
 * - registration, reached through an invitation: options → the browser makes
 *   a passkey → verify; the member, passkey, used invitation and audit entry
 *   are written in one batch, and a session opens;
 * - sign-in with a discoverable passkey (no email asked): options → the
 *   browser picks a passkey for this site → verify, with the counter check and
 *   rate limits per address and per account.
 * Each challenge is stored, answered once (deleted on first use) and expires
 * after five minutes.
 */
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { insertChallenge, takeChallenge } from "../../db/portal/challenges";
import { enrolMember, reenrolMember } from "../../db/portal/enrolment";
import { addMemberPasskey, findPasskeyOfLiveMember, findReplacedPasskey, listMemberPasskeys, recordPasskeyUse, removeMemberPasskey } from "../../db/portal/passkeys";
import { localFormOf } from "../../domain/hub/local-form";
import { findMemberOfAnyState } from "../../db/portal/roster";
import { insertAuditEntry } from "../../db/portal/audit";
import { CHALLENGE_TTL_SECONDS, challengeAnswers, type ChallengePurpose } from "../../domain/portal/challenges";
import type { RelyingParty } from "../../domain/portal/relying-party";
import type { PortalViewer } from "../../domain/portal/viewer";
import { Refusal } from "../../lib/refusal";
import { newId } from "../../lib/ids";
import { epochSeconds, isoNow, type Deps } from "../deps";
import { openInvitation } from "./invitations";
import { openSession } from "./sessions";
import { markPasskeyVerified } from "../../db/portal/sessions";
import { countAttemptFromAddress, countAttemptOnAccount, countChallengeFromAddress } from "./sign-in-limits";

/**
 * The WebAuthn library, loaded on the first ceremony rather than when the Worker starts: it brings
 * the ASN.1 schemas of every attestation format (asn1js, @peculiar/*, reflect-metadata), whose
 * module code was most of a cold isolate's startup for every door (docs/capacity.md).
 * The bundler keeps a dynamically imported module unevaluated until this import runs.
 */
const webauthn = () => Promise.all([import("@simplewebauthn/server"), import("@simplewebauthn/server/helpers")]).then(([server, helpers]) => ({ ...server, isoBase64URL: helpers.isoBase64URL }));

/** Every refusal of a ceremony reads the same: nothing tells a prober which check failed. */
const refused = () => new Refusal("invalid_request", "The passkey could not be verified. Reload the page and try again.", { field: "response" });
const linkGone = () => new Refusal("not_found", "This invitation link is unknown, used or expired.");

async function issueChallenge(deps: Deps, challenge: string, purpose: ChallengePurpose, invitationId: string | null) {
  const id = newId("chl");
  await insertChallenge(deps.db, { id, challenge, purpose, invitationId, expiresAt: epochSeconds(deps) + CHALLENGE_TTL_SECONDS });
  return id;
}

/** The stored challenge, taken (so it cannot be answered again), when it was issued for this ceremony and is still fresh. */
async function answerableChallenge(deps: Deps, challengeId: string, purpose: ChallengePurpose, invitationId: string | null) {
  const challenge = await takeChallenge(deps.db, challengeId);
  if (!challenge || !challengeAnswers(challenge, purpose, invitationId, epochSeconds(deps))) throw refused();
  return challenge.challenge;
}

export async function registrationOptions(deps: Deps, rp: RelyingParty, token: string) {
  const { db } = deps;
  const found = await openInvitation(deps, token);
  if (!found) throw linkGone();
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: found.invitation.email,
    userDisplayName: `${found.invitation.email} (${found.organisation.name})`,
    attestationType: "none",
    // Discoverable, so signing in needs no email: the browser offers the passkeys it holds for this site.
    // User verification required: a passkey proves who holds it, not only that someone is there.
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
    timeout: CHALLENGE_TTL_SECONDS * 1000,
  });
  return { challengeId: await issueChallenge(deps, options.challenge, "register", found.invitation.id), options };
}

/** Verifies the new passkey, enrols the member (single use of the invitation) and answers the session token to set. */
export async function completeRegistration(deps: Deps, rp: RelyingParty, token: string, answer: { challengeId: string; response: RegistrationResponseJSON }) {
  const { db } = deps;
  const found = await openInvitation(deps, token);
  if (!found) throw linkGone();
  const { invitation } = found;
  const expectedChallenge = await answerableChallenge(deps, answer.challengeId, "register", invitation.id);
  const { verifyRegistrationResponse, isoBase64URL } = await webauthn();
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response: answer.response,
      expectedChallenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch {
    throw refused();
  }
  if (!verification.verified) throw refused();
  const { credential } = verification.registrationInfo;
  const passkey = { credentialId: credential.id, publicKey: isoBase64URL.fromBuffer(credential.publicKey), counter: credential.counter, transports: credential.transports ?? [] };
  if (invitation.memberId) {
    // A new sign-in link for a current member (a lost passkey): this passkey replaces all of theirs.
    const reenrolled = await reenrolMember(db, {
      invitationId: invitation.id,
      memberId: invitation.memberId,
      organisationId: invitation.organisationId,
      email: invitation.email,
      passkey,
      auditId: newId("aud"),
      at: isoNow(deps),
      nowSeconds: epochSeconds(deps),
    });
    if (!reenrolled) throw linkGone();
    return openSession(deps, { id: invitation.memberId, organisationId: invitation.organisationId });
  }
  const existing = await findMemberOfAnyState(db, invitation.organisationId, invitation.email);
  const memberId = existing?.id ?? newId("mem");
  const enrolled = await enrolMember(db, {
    invitationId: invitation.id,
    memberId,
    organisationId: invitation.organisationId,
    email: invitation.email,
    role: invitation.role,
    passkey,
    auditId: newId("aud"),
    at: isoNow(deps),
    nowSeconds: epochSeconds(deps),
  });
  if (!enrolled) throw linkGone();
  return openSession(deps, { id: memberId, organisationId: invitation.organisationId });
}

export async function signInOptions(deps: Deps, rp: RelyingParty, address: string) {
  const { db } = deps;
  await countChallengeFromAddress(deps, address);
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: "required", timeout: CHALLENGE_TTL_SECONDS * 1000 });
  return { challengeId: await issueChallenge(deps, options.challenge, "sign_in", null), options };
}

/**
 * Counts the attempt against the address, then (once the passkey names its
 * member) against the account, then verifies signature and counter. Answers
 * the session token to set.
 */
export async function completeSignIn(
  deps: Deps,
  rp: RelyingParty,
  address: string,
  answer: { challengeId: string; response: AuthenticationResponseJSON },
) {
  const { db } = deps;
  await countAttemptFromAddress(deps, address);
  const expectedChallenge = await answerableChallenge(deps, answer.challengeId, "sign_in", null);
  const found = await findPasskeyOfLiveMember(db, answer.response.id);
  if (!found) {
    await tellOfReplacement(deps, rp, expectedChallenge, answer.response);
    throw refused();
  }
  await countAttemptOnAccount(deps, found.member.id);
  const { passkey } = found;
  const verification = await verifiedAssertion(rp, expectedChallenge, answer.response, passkey);
  const at = isoNow(deps);
  // A counter that did not move forward (a cloned authenticator, or a replay racing this one) opens nothing.
  if ((await recordPasskeyUse(db, passkey.credentialId, verification.authenticationInfo.newCounter, at)) !== 1) throw refused();
  const sessionToken = await openSession(deps, found.member);
  await insertAuditEntry(db, { id: newId("aud"), organisationId: found.member.organisationId, memberId: found.member.id, environment: "sandbox", action: "session.opened", target: found.member.id, at });
  return sessionToken;
}

async function verifiedAssertion(rp: RelyingParty, expectedChallenge: string, response: AuthenticationResponseJSON, passkey: { credentialId: string; publicKey: string; counter: number; transports?: unknown }) {
  const { verifyAuthenticationResponse, isoBase64URL } = await webauthn();
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      credential: { id: passkey.credentialId, publicKey: isoBase64URL.toBuffer(passkey.publicKey), counter: passkey.counter, transports: (passkey.transports ?? []) as never },
      requireUserVerification: true,
    });
  } catch {
    throw refused();
  }
  if (!verification.verified) throw refused();
  return verification;
}

/**
 * A sign-in with a passkey that a new sign-in link replaced is refused with what
 * happened: when, and whose link, so the member learns of a re-enrolment they did not make. Told only
 * to an answer the replaced passkey itself signed (its public key is kept for this); it opens nothing.
 */
async function tellOfReplacement(deps: Deps, rp: RelyingParty, expectedChallenge: string, response: AuthenticationResponseJSON) {
  const replaced = await findReplacedPasskey(deps.db, response.id);
  if (!replaced) return;
  await verifiedAssertion(rp, expectedChallenge, response, replaced);
  const by = replaced.invitedBy === "operator" ? "the operator" : (replaced.issuerEmail ?? "a former member");
  throw new Refusal(
    "conflict",
    `This passkey no longer signs you in: your passkeys were replaced on ${localFormOf(null).time(replaced.replacedAt)} through a new sign-in link made by ${by}. If that was not you, tell another admin of your organisation or the operator at once.`,
    { field: "response" },
  );
}

/**
 * A further passkey for a signed-in member, and removing one. The registration
 * challenge is bound to the member: its `invitation_id` holds the member's id (`mem_…`, never an
 * invitation's `inv_…`), so it answers this member's ceremony only, not an invitation nor a sign-in.
 */
export async function addPasskeyOptions(deps: Deps, rp: RelyingParty, viewer: PortalViewer) {
  const { db } = deps;
  const existing = await listMemberPasskeys(db, viewer.memberId);
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: viewer.email,
    userDisplayName: `${viewer.email} (${viewer.organisationName})`,
    attestationType: "none",
    // The authenticator that already holds one of the member's passkeys is asked for no second one.
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports as never })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
    timeout: CHALLENGE_TTL_SECONDS * 1000,
  });
  return { challengeId: await issueChallenge(deps, options.challenge, "register", viewer.memberId), options };
}

export async function completeAddPasskey(deps: Deps, rp: RelyingParty, viewer: PortalViewer, answer: { challengeId: string; response: RegistrationResponseJSON }) {
  const { db } = deps;
  const expectedChallenge = await answerableChallenge(deps, answer.challengeId, "register", viewer.memberId);
  const { verifyRegistrationResponse, isoBase64URL } = await webauthn();
  let verification;
  try {
    verification = await verifyRegistrationResponse({ response: answer.response, expectedChallenge, expectedOrigin: rp.origins, expectedRPID: rp.id, requireUserVerification: true });
  } catch {
    throw refused();
  }
  if (!verification.verified) throw refused();
  const { credential } = verification.registrationInfo;
  if (await findPasskeyOfLiveMember(db, credential.id)) throw refused();
  await addMemberPasskey(
    db,
    { organisationId: viewer.organisationId, memberId: viewer.memberId, environment: viewer.environment, auditId: newId("aud"), at: isoNow(deps) },
    { credentialId: credential.id, publicKey: isoBase64URL.fromBuffer(credential.publicKey), counter: credential.counter, transports: credential.transports ?? [] },
  );
}

/** The viewer's own passkeys (name from where it lives, created, last used). */
export const passkeysOf = ({ db }: Deps, viewer: Pick<PortalViewer, "memberId">) => listMemberPasskeys(db, viewer.memberId);

/** Removes one of the viewer's own passkeys; another's (or an unknown id) is `not_found`, the last one `conflict`. */
export async function removePasskeyOf(deps: Deps, viewer: PortalViewer, credentialId: string) {
  const { db } = deps;
  const removed = await removeMemberPasskey(db, { organisationId: viewer.organisationId, memberId: viewer.memberId, environment: viewer.environment, auditId: newId("aud"), at: isoNow(deps) }, credentialId);
  if (removed) return;
  const mine = await listMemberPasskeys(db, viewer.memberId);
  if (!mine.some((p) => p.credentialId === credentialId)) throw new Refusal("not_found", "No such passkey.");
  throw new Refusal("conflict", "This is your only passkey: add another before you remove this one, or you could not sign in again.", { field: "passkey" });
}

/**
 * The step-up: a signed-in member proves one of their own passkeys on the page, and
 * this session (only this one) counts as checked for `STEP_UP_SECONDS`. The challenge is bound to the
 * member (`invitation_id` holds the member's id, purpose `sign_in`), so it answers neither a sign-in nor
 * another member's step-up; attempts count against the member's account like a sign-in's.
 */
export async function stepUpOptions(deps: Deps, rp: RelyingParty, viewer: PortalViewer) {
  const mine = await listMemberPasskeys(deps.db, viewer.memberId);
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: "required",
    allowCredentials: mine.map((p) => ({ id: p.credentialId, transports: p.transports as never })),
    timeout: CHALLENGE_TTL_SECONDS * 1000,
  });
  return { challengeId: await issueChallenge(deps, options.challenge, "sign_in", viewer.memberId), options };
}

export async function completeStepUp(deps: Deps, rp: RelyingParty, viewer: PortalViewer, answer: { challengeId: string; response: AuthenticationResponseJSON }) {
  const { db } = deps;
  await countAttemptOnAccount(deps, viewer.memberId);
  const expectedChallenge = await answerableChallenge(deps, answer.challengeId, "sign_in", viewer.memberId);
  const found = await findPasskeyOfLiveMember(db, answer.response.id);
  if (!found || found.member.id !== viewer.memberId) throw refused();
  const verification = await verifiedAssertion(rp, expectedChallenge, answer.response, found.passkey);
  const at = isoNow(deps);
  if ((await recordPasskeyUse(db, found.passkey.credentialId, verification.authenticationInfo.newCounter, at)) !== 1) throw refused();
  await markPasskeyVerified(db, viewer.sessionId, epochSeconds(deps));
  await insertAuditEntry(db, { id: newId("aud"), organisationId: viewer.organisationId, memberId: viewer.memberId, environment: viewer.environment, action: "session.stepped_up", target: viewer.memberId, at });
}
