/**
 * The JSON side of the passkey ceremonies, called by passkeys.js. Public
 * (no session yet), but still posts from our own origin only (sameOriginPosts
 * runs before them). Refusals are problem+json naming the field; a verified
 * ceremony sets the session cookie and answers where to go.
 */
import { z } from "@hono/zod-openapi";
import type { Hono } from "hono";
import { relyingPartyOf } from "../../../domain/portal/relying-party";
import { Refusal } from "../../../lib/refusal";
import { completeRegistration, completeSignIn, registrationOptions, signInOptions } from "../../../services/portal/passkeys";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { setSessionCookie } from "../session-cookie";
import { landingOf } from "./deep-link";
import { clearInvitationCookie, invitationTokenOf } from "./invitation-cookie";
import { clientAddress } from "../../../lib/client-address";

/** The browser's answer, as @simplewebauthn/browser hands it over; the library checks the inside. */
const CredentialAnswer = z.object({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal("public-key"),
  response: z.record(z.string(), z.unknown()),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.string().max(40).optional(),
});

const CeremonyAnswer = z.object({ challenge_id: z.string().min(1).max(64), response: CredentialAnswer });

const MAX_BODY_BYTES = 64 * 1024;

/** The ceremony answer of a JSON post, checked for shape (the WebAuthn library checks the inside). */
export async function answerOf(c: PortalContext) {
  if (Number(c.req.header("Content-Length") ?? 0) > MAX_BODY_BYTES) throw new Refusal("payload_too_large", "The answer is too large.");
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new Refusal("invalid_request", "The body must be JSON.", { field: "body" });
  }
  const parsed = CeremonyAnswer.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.join(".") || "body";
    throw new Refusal("invalid_request", `${field}: ${issue.message}`, { field });
  }
  return { challengeId: parsed.data.challenge_id, response: parsed.data.response as never };
}

const partyOf = (c: PortalContext) => relyingPartyOf(c.req.url, c.env.PUBLIC_URL);
const addressOf = (c: PortalContext) => clientAddress(c.req.raw);

export function registerCeremonyRoutes(portal: Hono<PortalEnv>) {
  // The acceptance page's ceremony: the token comes from the invitation cookie (invitation-cookie.ts).
  portal.post("/invitation/options", async (c) => {
    const { challengeId, options } = await registrationOptions(c.get("deps"), partyOf(c), invitationTokenOf(c));
    return c.json({ challenge_id: challengeId, options });
  });

  portal.post("/invitation/verify", async (c) => {
    const token = await completeRegistration(c.get("deps"), partyOf(c), invitationTokenOf(c), await answerOf(c));
    clearInvitationCookie(c);
    setSessionCookie(c, token);
    return c.json({ redirect: PORTAL_ROUTE });
  });

  // The same ceremony with the token in the path, for a client holding the link itself (tests, scripts).
  portal.post("/invitations/:token/options", async (c) => {
    const { challengeId, options } = await registrationOptions(c.get("deps"), partyOf(c), c.req.param("token"));
    return c.json({ challenge_id: challengeId, options });
  });

  portal.post("/invitations/:token/verify", async (c) => {
    const token = await completeRegistration(c.get("deps"), partyOf(c), c.req.param("token"), await answerOf(c));
    setSessionCookie(c, token);
    return c.json({ redirect: PORTAL_ROUTE });
  });

  portal.post("/sign-in/options", async (c) => {
    const { challengeId, options } = await signInOptions(c.get("deps"), partyOf(c), addressOf(c));
    return c.json({ challenge_id: challengeId, options });
  });

  portal.post("/sign-in/verify", async (c) => {
    const token = await completeSignIn(c.get("deps"), partyOf(c), addressOf(c), await answerOf(c));
    setSessionCookie(c, token);
    // A deep link that sent the person to sign in (`?next=`) is where they land, not the overview they did not ask for.
    return c.json({ redirect: landingOf(c.req.query("next")) });
  });
}
