/**
 * Issue 21 item 12: portal sessions have an absolute lifetime of 7 days beside the 12-hour idle
 * timeout, and passkeys require user verification (`userVerification: "required"`).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { portal, signedInMember } from "../helpers/portal";
import { invite, portalJson, registerThroughInvitation, signInWith } from "../helpers/portal-ceremony";
import { createOrganisation } from "../helpers/seed";

const DAY = 24 * 60 * 60 * 1000;

async function ageSession(sessionId: string, createdDaysAgo: number) {
  await env.DB.prepare("update portal_sessions set created_at = ?, last_seen_at = ? where token_hash = ?")
    .bind(new Date(Date.now() - createdDaysAgo * DAY).toISOString(), Math.floor(Date.now() / 1000), sessionId)
    .run();
}

describe("issue 21 item 12: portal sessions and passkeys", () => {
  it("item 12: a session in use every hour still ends 7 days after it began", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);
    await ageSession(session.sessionId, 6.9);
    expect((await portal("GET", "/", { session })).status).toBe(200);
    await ageSession(session.sessionId, 7.01);
    const ended = await portal("GET", "/", { session });
    expect(ended.status).toBe(303);
    expect(ended.location).toBe("/portal/sign-in");
  });

  it("item 12: registration and sign-in ask for user verification, and a passkey answer without it is refused", async () => {
    const org = await createOrganisation("partner");
    const { token } = await invite(org.id);
    const registration = await portalJson(`/invitations/${token}/options`, {});
    expect(registration.body.options.authenticatorSelection.userVerification).toBe("required");
    const { passkey } = await registerThroughInvitation((await invite(org.id)).token);

    const options = await portalJson("/sign-in/options", {}, { "CF-Connecting-IP": "192.0.2.12" });
    expect(options.body.options.userVerification).toBe("required");

    const presenceOnly = await signInWith(passkey, "192.0.2.12", { userVerified: false });
    expect(presenceOnly.verified.status).toBeGreaterThanOrEqual(400);
    expect(presenceOnly.cookie).toBeNull();
    const verified = await signInWith(passkey, "192.0.2.12");
    expect(verified.verified.status).toBe(200);
    expect(verified.cookie).not.toBeNull();
  });
});
