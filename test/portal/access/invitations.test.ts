import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin } from "../../helpers/api";
import { portal, signedInMember } from "../../helpers/portal";
import { invite, openInvitationLink, registerThroughInvitation } from "../../helpers/portal-ceremony";
import { createOrganisation, expectProblem } from "../../helpers/seed";
import { sha256Hex } from "../../../src/lib/crypto";

describe("operator invitations", () => {
  it("answers 201 with a single-use link that expires in seven days, storing only the token's SHA-256", async () => {
    const org = await createOrganisation("partner", "Invite Partners");
    const res = await admin("POST", `/organisations/${org.id}/invitations`, { email: "Ops@Example.TEST", role: "admin" });
    expect(res.status).toBe(201);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.body).toMatchObject({ organisation_id: org.id, email: "ops@example.test", role: "admin" });
    const url = new URL(res.body.url);
    expect(url.pathname).toMatch(/^\/portal\/invitations\/[A-Za-z0-9]{43}$/);
    const token = url.pathname.split("/").pop()!;
    const days = (Date.parse(res.body.expires_at) - Date.parse(res.body.created_at)) / 86_400_000;
    expect(days).toBeCloseTo(7, 2);
    const row = await env.DB.prepare("select * from portal_invitations where id = ?").bind(res.body.id).first<any>();
    expect(row.token_hash).toBe(await sha256Hex(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.invited_by).toBe("operator");
  });

  it("refuses a bad email or role naming the field, an unknown organisation with 404, a current member with 409", async () => {
    const org = await createOrganisation("lender");
    const badEmail = await admin("POST", `/organisations/${org.id}/invitations`, { email: "not-an-email", role: "admin" });
    expectProblem(badEmail, 400, "invalid_request");
    expect(badEmail.body.error.field).toBe("email");
    const badRole = await admin("POST", `/organisations/${org.id}/invitations`, { email: "a@example.test", role: "owner" });
    expectProblem(badRole, 400, "invalid_request");
    expect(badRole.body.error.field).toBe("role");
    const extra = await admin("POST", `/organisations/${org.id}/invitations`, { email: "a@example.test", role: "admin", password: "x" });
    expectProblem(extra, 400, "invalid_request");
    expectProblem(await admin("POST", "/organisations/org_nope/invitations", { email: "a@example.test", role: "member" }), 404, "not_found");
    const member = await signedInMember(org.id, "member", "taken@example.test");
    const taken = await admin("POST", `/organisations/${org.id}/invitations`, { email: member.email, role: "member" });
    expectProblem(taken, 409, "conflict");
    expect(taken.body.error.field).toBe("email");
  });

  it("opens the invitation page with the organisation and role; unknown, expired and used links are a plain 404", async () => {
    const org = await createOrganisation("partner", "Page Partners");
    const { token, id } = await invite(org.id, "member");
    const page = await openInvitationLink(token);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Page Partners");
    expect(page.text).toContain("as a member");
    expect(page.text).toContain("Create passkey");
    expect(page.text).toContain('src="/portal/assets/passkeys.js"');
    expect(page.headers.get("Content-Security-Policy")).toContain("script-src 'self'");

    expect((await portal("GET", `/invitations/${"x".repeat(43)}`)).status).toBe(404);

    await env.DB.prepare("update portal_invitations set expires_at = ? where id = ?").bind(Math.floor(Date.now() / 1000) - 1, id).run();
    const expired = await portal("GET", `/invitations/${token}`);
    expect(expired.status).toBe(404);
    expect(expired.text).toContain("This invitation link no longer works"); // issue 23 item 13: says what to do next
    expect(expired.text).not.toContain("Page Partners");

    const fresh = await invite(org.id, "member");
    const { verified } = await registerThroughInvitation(fresh.token);
    expect(verified.status).toBe(200);
    expect((await portal("GET", `/invitations/${fresh.token}`)).status).toBe(404);
  });

  it("serves the passkey script from the Worker without a session", async () => {
    const res = await portal("GET", "/assets/passkeys.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/javascript");
    expect(res.text).toContain("data-passkey-ceremony");
    expect(res.text).toContain("navigator.credentials");
  });
});
