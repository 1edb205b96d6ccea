import type { Hono } from "hono";
import { isRefusal } from "../../../lib/refusal";
import { isNotFound } from "../../kit/refusal";
import { messagesOf } from "../../kit/messages";
import { inviteMember, openInvitation, pendingInvitationsOf, reinviteMember, revokeInvitationOf } from "../../../services/portal/invitations";
import { recordPortalAction } from "../../../services/portal/audit";
import { auditLogOf, changeMemberRoleOf, memberOf, membersOf, removeMemberOf } from "../../../services/portal/members";
import { PORTAL_ROLES, type PortalRole } from "../../../domain/portal/viewer";
import { CONFIRMED, Confirm, isConfirmed } from "../../kit/confirm";
import { formatFor } from "../../kit/format";
import { readForm, showRefused, textFields } from "../../kit/form";
import { PortalPage } from "../layout";
import { addPasskeyOptions, completeAddPasskey, passkeysOf, removePasskeyOf } from "../../../services/portal/passkeys";
import { relyingPartyOf } from "../../../domain/portal/relying-party";
import { answerOf } from "./ceremony-routes";
import { passkeyName, passkeysPage } from "./passkeys-page";
import { CreateInvitation } from "../../../api/shared/schemas/portal-invitation";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { notFoundPage, refusedPage } from "../refused-page";
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
import { passkeyCheckedNow, registerStepUpRoutes, requireFreshPasskey } from "./step-up";

/** Sign-in and invitations, their ceremonies and the one script: reached without a session. */
export function registerPublicAccessPages(portal: Hono<PortalEnv>) {
  registerPasskeysAsset(portal);
  registerFormsAsset(portal);
  portal.get("/sign-in", (c) => c.html(signInPage({ next: landingOf(c.req.query("next")), notice: c.req.query("notice") })));
  // The link: its token is traded for a short-lived cookie and the browser moves on to the acceptance
  // page without it (issue 21 item 6). From another site (a webmail tab, `Sec-Fetch-Site: cross-site`)
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

async function renderMembers(c: PortalContext, status: 200 | 201 | 400 | 404 | 409, extra: Partial<MembersPageProps> = {}) {
  const [members, invitations] = await Promise.all([membersOf(c.get("deps"), c.get("viewer")), pendingInvitationsOf(c.get("deps"), c.get("viewer").organisationId)]);
  return c.html(membersPage({ viewer: c.get("viewer"), formToken: c.get("formToken"), members, invitations, ...extra }), status);
}

/** Another organisation's thing, or none: the portal's 404 page. */
const notFound = (c: PortalContext) => c.html(notFoundPage(), 404);

/**
 * A refused action on a member (remove, re-invite, change of role): another organisation's member or
 * none is the 404 page; a conflict (the last admin, a member who is gone) is the members page again,
 * 409, with the reason in the person's words above the list; anything else goes on to onError.
 */
const memberActionRefused = (c: PortalContext, error: unknown) =>
  showRefused(c, error, notFound, (refusal) => renderMembers(c, 409, { feedback: { error: { field: null, message: refusal.message } } }), ["conflict"]);

/** The member a confirm page asks about; null for another organisation's member or none (the caller answers the 404 page). */
async function memberToAskAbout(c: PortalContext, id: string) {
  try {
    return await memberOf(c.get("deps"), c.get("viewer"), id);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** Members and the audit log: admins only. */
export function registerAccessPages(portal: Hono<PortalEnv>) {
  portal.use("/members", requireAdmin);
  portal.use("/members/*", requireAdmin);
  portal.use("/audit", requireAdmin);
  registerStepUpRoutes(portal);
  // The step-up actions (issue 39 item 9): a passkey proof of the last minutes, not the session alone.
  portal.use("/members/:id/reinvite", requireFreshPasskey(() => `${PORTAL_ROUTE}/members`));
  portal.use("/passkeys/options", requireFreshPasskey(() => `${PORTAL_ROUTE}/passkeys`));
  portal.use("/passkeys/verify", requireFreshPasskey(() => `${PORTAL_ROUTE}/passkeys`));

  portal.get("/members", (c) => renderMembers(c, 200, { feedback: { notice: NOTICES[c.req.query("notice") ?? ""] ?? null } }));

  portal.post("/members/invitations", async (c) => {
    const form = await c.req.formData();
    const draft = { email: String(form.get("email") ?? ""), role: String(form.get("role") ?? "") };
    const asked = { email: draft.email.trim(), role: draft.role };
    const parsed = CreateInvitation.safeParse(asked);
    if (!parsed.success) {
      const [first] = messagesOf(parsed.error, asked);
      return renderMembers(c, 400, { draft, feedback: { error: { field: first.field ?? "email", message: first.message } } });
    }
    const viewer = c.get("viewer");
    try {
      const issued = await inviteMember(c.get("deps"), viewer.organisationId, parsed.data, viewer.memberId);
      await recordPortalAction(c.get("deps"), viewer, "member.invited", issued.id);
      return renderMembers(c, 201, { invited: { email: issued.email, url: issued.url, expiresAt: issued.expiresAt } });
    } catch (error) {
      if (isRefusal(error, "conflict")) return renderMembers(c, 409, { draft, feedback: { error: { field: "email", message: messagesOf({ code: error.code, detail: error.detail, field: "email" })[0].message } } });
      throw error;
    }
  });

  portal.post("/members/invitations/:id/revoke", async (c) => {
    const viewer = c.get("viewer");
    try {
      await revokeInvitationOf(c.get("deps"), viewer.organisationId, c.req.param("id"), viewer);
    } catch (error) {
      if (isNotFound(error)) return c.html(notFoundPage(), 404);
      throw error;
    }
    return c.redirect(`${PORTAL_ROUTE}/members?notice=revoked`, 303);
  });

  // Removing a member asks first (the kit's confirm page); a post without its `confirmed` field is sent to the question.
  portal.get("/members/:id/remove", async (c) => {
    const viewer = c.get("viewer");
    const member = await memberToAskAbout(c, c.req.param("id"));
    if (!member) return notFound(c);
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

  portal.post("/members/:id/remove", async (c) => {
    if (!isConfirmed(textFields(await readForm(c)))) return c.redirect(`${PORTAL_ROUTE}/members/${encodeURIComponent(c.req.param("id"))}/remove`, 303);
    try {
      await removeMemberOf(c.get("deps"), c.get("viewer"), c.req.param("id"));
    } catch (error) {
      return memberActionRefused(c, error);
    }
    return c.redirect(`${PORTAL_ROUTE}/members?notice=removed`, 303);
  });

  // A new sign-in link for a member who lost their passkey: shown once on this answer, like an invitation's.
  // A member's only: an admin's comes from the operator (issue 39 item 1), refused here as a conflict.
  portal.post("/members/:id/reinvite", async (c) => {
    const viewer = c.get("viewer");
    try {
      const issued = await reinviteMember(c.get("deps"), viewer, c.req.param("id"));
      return renderMembers(c, 201, { invited: { email: issued.email, url: issued.url, expiresAt: issued.expiresAt, reenrol: true } });
    } catch (error) {
      return memberActionRefused(c, error);
    }
  });

  // Changing a role asks first (the kit's confirm page); the change is the other role of the two.
  portal.get("/members/:id/role", async (c) => {
    const viewer = c.get("viewer");
    const member = await memberToAskAbout(c, c.req.param("id"));
    if (!member) return notFound(c);
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

  portal.post("/members/:id/role", async (c) => {
    const role = String((await c.req.formData()).get("role") ?? "");
    if (!(PORTAL_ROLES as readonly string[]).includes(role)) return renderMembers(c, 400, { feedback: { error: { field: null, message: "Choose Admin or Member as the new role." } } });
    try {
      await changeMemberRoleOf(c.get("deps"), c.get("viewer"), c.req.param("id"), role as PortalRole);
    } catch (error) {
      return memberActionRefused(c, error);
    }
    return c.redirect(`${PORTAL_ROUTE}/members?notice=role_changed`, 303);
  });

  // Every member's own passkeys (not an admin page): the list, another one, removing one after confirming.
  const PASSKEY_NOTICES: Record<string, string> = { added: "Passkey added: you can sign in with it now.", removed: "Passkey removed: it no longer signs you in." };
  const renderPasskeys = async (c: PortalContext, status: 200 | 409, feedback?: Parameters<typeof passkeysPage>[0]["feedback"]) =>
    c.html(passkeysPage({ viewer: c.get("viewer"), formToken: c.get("formToken"), passkeys: await passkeysOf(c.get("deps"), c.get("viewer")), stepUpNeeded: !passkeyCheckedNow(c), feedback }), status);
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
    if (!passkey) return c.html(notFoundPage(), 404);
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
  portal.post("/passkeys/:id/remove", async (c) => {
    try {
      await removePasskeyOf(c.get("deps"), c.get("viewer"), c.req.param("id"));
    } catch (error) {
      return showRefused(c, error, notFound, (refusal) => renderPasskeys(c, 409, { error: { field: null, message: refusal.message } }), ["conflict"]);
    }
    return c.redirect(`${PORTAL_ROUTE}/passkeys?notice=removed`, 303);
  });

  portal.get("/audit", async (c) => {
    const cursor = c.req.query("cursor");
    try {
      const page = await auditLogOf(c.get("deps"), c.get("viewer"), cursor);
      return c.html(auditPage({ viewer: c.get("viewer"), formToken: c.get("formToken"), entries: page.entries, nextCursor: page.nextCursor, paged: cursor !== undefined }));
    } catch (error) {
      // A cursor this page did not issue (edited, or another organisation's) is refused, never read.
      if (isRefusal(error, "invalid_request")) return c.html(refusedPage("That page of the audit log does not exist: open the audit log again from the menu."), 400);
      throw error;
    }
  });
}
