import type { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { Refusal } from "../../../lib/refusal";
import { parseForm } from "../../kit/refusal";
import { inviteMember, openInvitation, pendingInvitationsOf, reinviteMember, revokeInvitationOf } from "../../../services/portal/invitations";
import { auditLogOf, changeMemberRoleOf, memberOf, membersOf, removeMemberOf } from "../../../services/portal/members";
import { PORTAL_ROLES, type PortalRole } from "../../../domain/portal/viewer";
import { CONFIRMED, Confirm } from "../../kit/confirm";
import { formatFor } from "../../kit/format";
import { queryPage, textOf, type FormNext } from "../../kit/form";
import { portalForm } from "../form-action";
import { PortalPage } from "../layout";
import { addPasskeyOptions, completeAddPasskey, passkeysOf, removePasskeyOf } from "../../../services/portal/passkeys";
import { relyingPartyOf } from "../../../domain/portal/relying-party";
import { answerOf } from "./ceremony-routes";
import { passkeyName, passkeysPage } from "./passkeys-page";
import { CreateInvitation } from "../../../api/shared/schemas/portal-invitation";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { areaMessagePage } from "../refused-page";
import { requireAdmin } from "../require-role";
import { auditPage } from "./audit-page";
import { registerCeremonyRoutes } from "./ceremony-routes";
import { invitationGonePage, invitationOpeningPage, invitationPage } from "./invitation-page";
import { INVITATION_PAGE, invitationTokenOf, setInvitationCookie } from "./invitation-cookie";
import { landingOf } from "./deep-link";
import { membersPage, type MembersPageProps } from "./members-page";
import { registerPasskeysAsset } from "./passkeys-asset";
import { registerFormsAsset } from "../forms-asset";
import { signInPage } from "./sign-in-page";
import { registerSettingsPages } from "./settings-page";
import { passkeyCheckedNow, registerStepUpRoutes, requireFreshPasskey } from "./step-up";

/** Sign-in and invitations, their ceremonies and the one script: reached without a session. */
export function registerPublicAccessPages(portal: Hono<PortalEnv>) {
  registerPasskeysAsset(portal);
  registerFormsAsset(portal);
  portal.get("/sign-in", (c) => c.html(signInPage({ next: landingOf(c.req.query("next")), notice: c.req.query("notice") })));
  // The link: its token is traded for a short-lived cookie and the browser moves on to the acceptance
  // page without it, so the token leaves the address bar and the history. From another site (a webmail tab, `Sec-Fetch-Site: cross-site`)
  // a page that moves on by itself, since a browser withholds a SameSite=Strict cookie on a redirect
  // chain another site started; otherwise a 303.
  portal.get("/invitations/:token", async (c) => {
    const found = await openInvitation(c.get("deps"), c.req.param("token"));
    // Unknown, used and expired links look alike, and say what to do next.
    if (!found) return c.html(invitationGonePage(), 404);
    setInvitationCookie(c, c.req.param("token"));
    if (c.req.header("Sec-Fetch-Site") === "cross-site") return c.html(invitationOpeningPage(INVITATION_PAGE), 200);
    return c.redirect(INVITATION_PAGE, 303);
  });
  portal.get("/invitation", async (c) => {
    const found = await openInvitation(c.get("deps"), invitationTokenOf(c));
    if (!found) return c.html(invitationGonePage(), 404);
    return c.html(invitationPage({ organisationName: found.organisation.name, email: found.invitation.email, role: found.invitation.role, reenrol: found.invitation.memberId !== null }));
  });
  registerCeremonyRoutes(portal);
}

const NOTICES: Record<string, string> = {
  removed: "The member was removed; their sessions and passkeys are gone and their pending invitations revoked.",
  revoked: "The invitation was revoked; its link no longer works.",
  role_changed: "The member's role was changed; their open pages use the new role from their next click.",
};

const ROLE_WORDS: Record<PortalRole, { a: string; can: string }> = {
  admin: { a: "an admin", can: "They will manage API keys, webhooks, members and the audit log besides the work itself." },
  member: { a: "a member", can: "They keep the work itself (leads or deals) but lose API keys, webhooks, members and the audit log." },
};

async function renderMembers(c: PortalContext, status: ContentfulStatusCode, extra: Partial<MembersPageProps> = {}) {
  const [members, invitations] = await Promise.all([membersOf(c.get("deps"), c.get("viewer")), pendingInvitationsOf(c.get("deps"), c.get("viewer").organisationId)]);
  return c.html(membersPage({ viewer: c.get("viewer"), formToken: c.get("formToken"), members, invitations, ...extra }), status);
}

/**
 * An action on a member (remove, re-invite, change of role), the portal's one form shape: audited by
 * the service in its own batch; another organisation's member or none is the 404 page (the portal's
 * error handler); a conflict (the last admin, a member who is gone) or a bad choice is the members
 * page again with the reason in the person's words above the list.
 */
const memberAction = (act: (c: PortalContext, form: FormData) => Promise<FormNext>, confirm?: (c: PortalContext) => string) =>
  portalForm({
    audit: null,
    codes: ["conflict", "invalid_request"],
    confirm,
    showAgain: (c, refusal) => renderMembers(c, refusal.status, { feedback: { error: { field: null, message: refusal.message } } }),
    page: () => `${PORTAL_ROUTE}/members`,
    act,
  });

const memberIdOf = (c: PortalContext) => c.req.param("id") ?? "";

/** Members and the audit log: admins only. */
export function registerAccessPages(portal: Hono<PortalEnv>) {
  portal.use("/members", requireAdmin);
  portal.use("/members/*", requireAdmin);
  portal.use("/audit", requireAdmin);
  registerStepUpRoutes(portal);
  // The step-up actions: a passkey proof of the last minutes, not the session alone.
  portal.use("/members/:id/reinvite", requireFreshPasskey(() => `${PORTAL_ROUTE}/members`));
  portal.use("/passkeys/options", requireFreshPasskey(() => `${PORTAL_ROUTE}/passkeys`));
  portal.use("/passkeys/verify", requireFreshPasskey(() => `${PORTAL_ROUTE}/passkeys`));

  portal.get("/members", (c) => renderMembers(c, 200, { feedback: { notice: NOTICES[c.req.query("notice") ?? ""] ?? null } }));

  portal.post(
    "/members/invitations",
    portalForm<{ email: string; role: string; display_name: string }>({
      // Audited by the service, in the invitation's own batch (target: the invitation).
      audit: null,
      draftOf: (form) => ({ email: textOf(form, "email"), role: textOf(form, "role"), display_name: textOf(form, "display_name") }),
      showAgain: (c, refusal, draft) =>
        renderMembers(c, refusal.status, { draft, feedback: { error: { field: refusal.field ?? "email", message: refusal.message, problems: refusal.problems } } }),
      page: () => `${PORTAL_ROUTE}/members`,
      act: async (c, form) => {
        const viewer = c.get("viewer");
        const name = textOf(form, "display_name").trim();
        const asked = parseForm(CreateInvitation, { email: textOf(form, "email").trim(), role: textOf(form, "role"), ...(name ? { display_name: name } : {}) }, "form");
        const issued = await inviteMember(c.get("deps"), viewer.organisationId, asked, viewer.memberId, { action: "member.invited", environment: viewer.environment });
        // The link is shown on this one answer, never in a redirect.
        return renderMembers(c, 201, { invited: { email: issued.email, url: issued.url, expiresAt: issued.expiresAt } });
      },
    }),
  );

  portal.post(
    "/members/invitations/:id/revoke",
    portalForm({
      audit: null,
      showAgain: (c, refusal) => renderMembers(c, refusal.status, { feedback: { error: { field: null, message: refusal.message } } }),
      page: () => `${PORTAL_ROUTE}/members`,
      act: async (c) => {
        const viewer = c.get("viewer");
        await revokeInvitationOf(c.get("deps"), viewer.organisationId, memberIdOf(c), viewer);
        return `${PORTAL_ROUTE}/members?notice=revoked`;
      },
    }),
  );

  // Removing a member asks first (the kit's confirm page); a post without its `confirmed` field is sent to the question.
  portal.get("/members/:id/remove", async (c) => {
    const viewer = c.get("viewer");
    const member = await memberOf(c.get("deps"), viewer, c.req.param("id"));
    // Oneself: the same refusal the post gives, with no question that could only be refused.
    if (member.id === viewer.memberId) return renderMembers(c, 409, { feedback: { error: { field: null, message: "You cannot remove yourself; ask another admin." } } });
    return c.html(
      <PortalPage title="Remove a member" viewer={viewer} formToken={c.get("formToken")}>
        <Confirm
          question={`Remove ${member.email}?`}
          facts={[
            ["Member", member.email],
            ["Role", member.role === "admin" ? "Admin" : "Member"],
            ["Member since", formatFor(null).time(member.createdAt)],
          ]}
          consequence={`${member.email} can no longer sign in to ${viewer.organisationName}'s portal: their open sessions end at once and their passkeys stop working here. What they did stays in the audit log.`}
          irreversible
          next="you are back on the members list. To let them in again, invite them as a new member."
          action={`${PORTAL_ROUTE}/members/${member.id}/remove`}
          hidden={{ _form_token: c.get("formToken"), ...CONFIRMED }}
          confirmLabel="Remove the member"
          cancelHref={`${PORTAL_ROUTE}/members`}
          cancelLabel="Cancel, keep them"
        />
      </PortalPage>,
    );
  });

  portal.post(
    "/members/:id/remove",
    memberAction(
      async (c) => {
        await removeMemberOf(c.get("deps"), c.get("viewer"), memberIdOf(c));
        return `${PORTAL_ROUTE}/members?notice=removed`;
      },
      (c) => `${PORTAL_ROUTE}/members/${encodeURIComponent(memberIdOf(c))}/remove`,
    ),
  );

  // A new sign-in link for a member who lost their passkey: shown once on this answer, like an invitation's.
  // A member's only: an admin's comes from the operator (one admin must not take over another's account), refused here as a conflict.
  portal.post(
    "/members/:id/reinvite",
    memberAction(async (c) => {
      const issued = await reinviteMember(c.get("deps"), c.get("viewer"), memberIdOf(c));
      return renderMembers(c, 201, { invited: { email: issued.email, url: issued.url, expiresAt: issued.expiresAt, reenrol: true } });
    }),
  );

  // Changing a role asks first (the kit's confirm page); the change is the other role of the two.
  portal.get("/members/:id/role", async (c) => {
    const viewer = c.get("viewer");
    const member = await memberOf(c.get("deps"), viewer, c.req.param("id"));
    const to: PortalRole = member.role === "admin" ? "member" : "admin";
    const self = member.id === viewer.memberId;
    return c.html(
      <PortalPage title="Change a member's role" viewer={viewer} formToken={c.get("formToken")}>
        <Confirm
          question={`Make ${member.email} ${ROLE_WORDS[to].a}?`}
          facts={[
            ["Member", member.email],
            ["Role now", member.role === "admin" ? "Admin" : "Member"],
            ["New role", to === "admin" ? "Admin" : "Member"],
          ]}
          consequence={`${ROLE_WORDS[to].can}${self ? " This is you: you lose the admin pages as soon as you confirm." : ""}`}
          next="their open pages use the new role from their next click; you can change it back here at any time. The change is written to the audit log."
          action={`${PORTAL_ROUTE}/members/${member.id}/role`}
          hidden={{ _form_token: c.get("formToken"), role: to }}
          confirmLabel={`Make ${to === "admin" ? "admin" : "member"}`}
          cancelHref={`${PORTAL_ROUTE}/members`}
        />
      </PortalPage>,
    );
  });

  portal.post(
    "/members/:id/role",
    memberAction(async (c, form) => {
      const role = textOf(form, "role");
      if (!(PORTAL_ROLES as readonly string[]).includes(role)) throw new Refusal("invalid_request", "Choose Admin or Member as the new role.");
      await changeMemberRoleOf(c.get("deps"), c.get("viewer"), memberIdOf(c), role as PortalRole);
      return `${PORTAL_ROUTE}/members?notice=role_changed`;
    }),
  );

  // Every member's own passkeys (not an admin page): the list, another one, removing one after confirming.
  const PASSKEY_NOTICES: Record<string, string> = { added: "Passkey added: you can sign in with it now.", removed: "Passkey removed: it no longer signs you in." };
  const renderPasskeys = async (c: PortalContext, status: ContentfulStatusCode, feedback?: Parameters<typeof passkeysPage>[0]["feedback"]) =>
    c.html(passkeysPage({ viewer: c.get("viewer"), formToken: c.get("formToken"), passkeys: await passkeysOf(c.get("deps"), c.get("viewer")), stepUpNeeded: !passkeyCheckedNow(c), feedback }), status);
  registerSettingsPages(portal);
  portal.get("/passkeys", (c) => renderPasskeys(c, 200, { notice: PASSKEY_NOTICES[c.req.query("notice") ?? ""] ?? null }));
  portal.post("/passkeys/options", async (c) => {
    const { challengeId, options } = await addPasskeyOptions(c.get("deps"), relyingPartyOf(c.req.url, c.env.PUBLIC_URL), c.get("viewer"));
    return c.json({ challenge_id: challengeId, options });
  });
  portal.post("/passkeys/verify", async (c) => {
    await completeAddPasskey(c.get("deps"), relyingPartyOf(c.req.url, c.env.PUBLIC_URL), c.get("viewer"), await answerOf(c));
    return c.json({ redirect: `${PORTAL_ROUTE}/passkeys?notice=added` });
  });
  portal.get("/passkeys/:id/remove", async (c) => {
    const viewer = c.get("viewer");
    const passkeys = await passkeysOf(c.get("deps"), viewer);
    const passkey = passkeys.find((p) => p.credentialId === c.req.param("id"));
    if (!passkey) throw new Refusal("not_found", "No such passkey.");
    return c.html(
      <PortalPage title="Remove a passkey" viewer={viewer} formToken={c.get("formToken")}>
        <Confirm
          question={`Remove ${passkeyName(passkey)}?`}
          facts={[
            ["Passkey", passkeyName(passkey)],
            ["Added", formatFor(null).time(passkey.createdAt)],
            ["Your other passkeys", String(passkeys.length - 1)],
          ]}
          consequence="It will no longer sign you in, on any device. Your other passkeys keep working."
          irreversible
          next="you are back on your passkeys. Also delete it from the device's passkey manager if you still have the device."
          action={`${PORTAL_ROUTE}/passkeys/${passkey.credentialId}/remove`}
          hidden={{ _form_token: c.get("formToken") }}
          confirmLabel="Remove the passkey"
          cancelHref={`${PORTAL_ROUTE}/passkeys`}
          cancelLabel="Cancel, keep it"
        />
      </PortalPage>,
    );
  });
  portal.post(
    "/passkeys/:id/remove",
    portalForm({
      // Audited by the service, in the removal's own batch.
      audit: null,
      codes: ["conflict"],
      showAgain: (c, refusal) => renderPasskeys(c, refusal.status, { error: { field: null, message: refusal.message } }),
      page: () => `${PORTAL_ROUTE}/passkeys`,
      act: async (c) => {
        await removePasskeyOf(c.get("deps"), c.get("viewer"), c.req.param("id") ?? "");
        return `${PORTAL_ROUTE}/passkeys?notice=removed`;
      },
    }),
  );

  portal.get(
    "/audit",
    queryPage<PortalContext>({
      // A cursor this page did not issue (edited, or another organisation's) is refused, never read.
      showAgain: (c, refusal) =>
        c.html(areaMessagePage({ viewer: c.get("viewer"), formToken: c.get("formToken") }, "Refused", "That page of the audit log does not exist: open the audit log again from the menu."), refusal.status),
      read: async (c) => {
        const cursor = c.req.query("cursor");
        const page = await auditLogOf(c.get("deps"), c.get("viewer"), cursor);
        return c.html(auditPage({ viewer: c.get("viewer"), formToken: c.get("formToken"), entries: page.entries, nextCursor: page.nextCursor, paged: cursor !== undefined }));
      },
    }),
  );
}
