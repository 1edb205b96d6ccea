import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { portal, signedInMember } from "../../helpers/portal";
import { createOrganisation } from "../../helpers/seed";

const formActionsOf = (html: string) => [...html.matchAll(/<form method="post" action="([^"]+)"/g)].map((m) => m[1]);

// Found by the Chromium walk of Members (test/browser/portal-passkeys.browser.test.ts): "Remove"
// beside a member posted at once, though removing someone ends their sessions and deletes their
// passkeys, and docs/portal.md lists removing a member among the actions behind the confirm page.
describe("removing a member is confirmed on its own page", () => {
  it("Members links to a confirm page that names the member; following it changes nothing; another organisation's member is 404", async () => {
    const org = await createOrganisation("partner");
    const admin = await signedInMember(org.id, "admin");
    const leaver = await signedInMember(org.id, "member");

    const members = await portal("GET", "/members", { session: admin });
    expect(formActionsOf(members.text)).not.toContain(`/portal/members/${leaver.memberId}/remove`);
    expect(members.text).toContain(`<a class="button danger" href="/portal/members/${leaver.memberId}/remove" aria-describedby="member-${leaver.memberId}">Remove</a>`);

    const confirm = await portal("GET", `/members/${leaver.memberId}/remove`, { session: admin });
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain(`Remove ${leaver.email}?`);
    expect(confirm.text).toContain("This cannot be undone.");
    expect(formActionsOf(confirm.text)).toContain(`/portal/members/${leaver.memberId}/remove`);
    // Looking changed nothing: the member is still signed in and nothing was audited.
    expect((await portal("GET", "/", { session: leaver })).status).toBe(200);
    const audit = await env.DB.prepare("select action from portal_audit_log where organisation_id = ? and action = 'member.removed'").bind(org.id).all();
    expect(audit.results).toEqual([]);

    const other = await createOrganisation("partner");
    const outsider = await signedInMember(other.id, "member");
    expect((await portal("GET", `/members/${outsider.memberId}/remove`, { session: admin })).status).toBe(404);
    expect((await portal("GET", `/members/${leaver.memberId}/remove`, { session: leaver })).status).toBe(404);

    // Confirming removes them.
    expect((await portal("POST", `/members/${leaver.memberId}/remove`, { session: admin, form: { confirmed: "yes" } })).status).toBe(303);
    expect((await portal("GET", "/", { session: leaver })).status).toBe(303);
  });
});
