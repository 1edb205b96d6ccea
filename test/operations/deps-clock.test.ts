/**
 * A test fixes the time through Deps (docs/architecture.md "Services on the context"): every service
 * reads `deps.clock()`, never the global clock, so a Deps with a fixed clock decides what the service
 * writes and what it finds expired. One service of each kind of time: a timestamp column
 * (createOrganisation, recordPortalAction), an expiry by the second (invitations, sessions), and a
 * Date the service computes with (a webhook secret's overlap).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { INVITATION_TTL_SECONDS } from "../../src/domain/portal/invitations";
import { SESSION_IDLE_SECONDS, type PortalViewer } from "../../src/domain/portal/viewer";
import { createOrganisation } from "../../src/services/identity/organisations";
import { recordPortalAction } from "../../src/services/portal/audit";
import { inviteMember, openInvitation } from "../../src/services/portal/invitations";
import { openSession, viewerOfSession } from "../../src/services/portal/sessions";
import { testDeps } from "../helpers/deps";
import { signedInMember } from "../helpers/portal";

/** A moment no real clock will show while this runs, so only the Deps can have put it there. */
const FIXED = new Date("2031-03-04T05:06:07.000Z");
const at = (seconds: number) => testDeps({ now: new Date(FIXED.getTime() + seconds * 1000) });

describe("services read the time from deps.clock()", () => {
  it("a row's timestamp is the Deps clock's time", async () => {
    const organisation = await createOrganisation(testDeps({ now: FIXED }), { name: `clock ${crypto.randomUUID().slice(0, 8)}`, kind: "partner" });
    expect(organisation.createdAt).toBe(FIXED.toISOString());
    const stored = await env.DB.prepare("select created_at from organisations where id = ?").bind(organisation.id).first<{ created_at: string }>();
    expect(stored?.created_at).toBe(FIXED.toISOString());

    const member = await signedInMember(organisation.id);
    const viewer: PortalViewer = {
      memberId: member.memberId,
      email: member.email,
      role: "admin",
      organisationId: organisation.id,
      organisationName: organisation.name,
      organisationKind: organisation.kind,
      environment: "sandbox",
      sessionId: member.sessionId,
      passkeyVerifiedAt: 0,
    };
    await recordPortalAction(testDeps({ now: FIXED }), viewer, "deal.viewed", "clock-target");
    const entry = await env.DB.prepare("select at from portal_audit_log where organisation_id = ? and target = 'clock-target'").bind(organisation.id).first<{ at: string }>();
    expect(entry?.at).toBe(FIXED.toISOString());
  });

  it("an invitation is issued, and expires, by the Deps clock", async () => {
    const organisation = await createOrganisation(testDeps(), { name: `clock ${crypto.randomUUID().slice(0, 8)}`, kind: "partner" });
    const issued = await inviteMember(testDeps({ now: FIXED }), organisation.id, { email: `${crypto.randomUUID().slice(0, 8)}@example.test`, role: "member" }, "operator");
    expect(issued.createdAt).toBe(FIXED.toISOString());
    expect(issued.expiresAt).toBe(new Date(FIXED.getTime() + INVITATION_TTL_SECONDS * 1000).toISOString());
    const token = new URL(issued.url).pathname.split("/").pop()!;
    expect(await openInvitation(at(INVITATION_TTL_SECONDS - 1), token)).not.toBeNull();
    expect(await openInvitation(at(INVITATION_TTL_SECONDS + 1), token)).toBeNull();
  });

  it("a session opened at the Deps clock's time goes idle by it", async () => {
    const organisation = await createOrganisation(testDeps(), { name: `clock ${crypto.randomUUID().slice(0, 8)}`, kind: "partner" });
    const member = await signedInMember(organisation.id);
    const token = await openSession(testDeps({ now: FIXED }), { id: member.memberId, organisationId: organisation.id });
    // Idle for less than the limit (and read without a touch: under a minute after it opened).
    expect(await viewerOfSession(at(30), token)).toMatchObject({ memberId: member.memberId, organisationId: organisation.id });
    expect(await viewerOfSession(at(SESSION_IDLE_SECONDS + 31), token)).toBeNull();
  });
});
