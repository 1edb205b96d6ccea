import { PORTAL_ROLES, type PortalRole, type PortalViewer } from "../../../domain/portal/viewer";
import { PORTAL_ROUTE } from "../context";
import { FieldError, FormToken, PortalPage, RequiredMark, type PageFeedback } from "../layout";
import { ConfirmStart } from "../../kit/confirm";
import { RecordTable } from "../../kit/table";
import { formatFor, LABELS } from "../../kit/format";

interface MemberLine {
  id: string;
  email: string;
  role: PortalRole;
  createdAt: string;
}

interface PendingInvitationLine {
  id: string;
  email: string;
  role: PortalRole;
  /** Set on a new sign-in link: the member whose passkeys it replaces. */
  memberId: string | null;
  invitedBy: string;
  issuerEmail: string | null;
  expiresAt: string;
}

/** What a pending link does when used (issue 39 item 1): a new sign-in link takes over a current member's account. */
const kindOf = (i: PendingInvitationLine) => (i.memberId ? "New sign-in link: replaces this member's passkeys" : `Invitation as ${roleLabel(i.role)}`);
/** Who made it: the operator, a member by email, or one the organisation no longer has. */
const issuerOf = (i: PendingInvitationLine) => (i.invitedBy === "operator" ? "Operator" : (i.issuerEmail ?? "A former member"));

export interface MembersPageProps {
  viewer: PortalViewer;
  formToken: string;
  members: MemberLine[];
  /** Invitations that can still be accepted: each with Revoke, so none works unseen. */
  invitations: PendingInvitationLine[];
  feedback?: PageFeedback;
  /** The invitation just made: its link is on this answer and nowhere else, ever. */
  invited?: { email: string; url: string; expiresAt: string; reenrol?: boolean } | null;
  /** What was typed, put back after a refusal. */
  draft?: { email: string; role: string };
}

/** A moment in the kit's one form, UTC named (members belong to no one market): `8 Dec 2026, 06:24 UTC`. */
const day = (iso: string) => formatFor(null).time(iso);

/** Member first: a new invitation is for the work itself unless the admin picks Admin (issue 23 item 4). */
const INVITATION_ROLES: readonly PortalRole[] = ["member", "admin"];
const roleLabel = (role: PortalRole) => LABELS.role(role);
/** The role the select shows: what was sent when it was a role, else Member. */
const draftRole = (draft?: { role: string }): PortalRole => (PORTAL_ROLES as readonly string[]).includes(draft?.role ?? "") ? (draft!.role as PortalRole) : "member";

export const membersPage = (p: MembersPageProps) => (
  <PortalPage title="Members" viewer={p.viewer} formToken={p.formToken} feedback={p.feedback}>
    {p.invited ? (
      <section aria-labelledby="invited-heading">
        <h2 id="invited-heading">
          {p.invited.reenrol ? "New sign-in link for" : "Invitation for"} {p.invited.email}
        </h2>
        <p>Send this link to them. It is shown only now, works once and expires on {day(p.invited.expiresAt)}.</p>
        {p.invited.reenrol ? (
          <p>
            Until it is used nothing changes. When they make a passkey with it, their old passkeys stop working and their open sessions end; they keep their role.
          </p>
        ) : null}
        <p class="secret" data-invitation-link>
          {p.invited.url}
        </p>
      </section>
    ) : null}
    <h2>People who can sign in</h2>
    <RecordTable
      label="Members"
      rows={p.members}
      columns={[
        { header: "Email", cell: (m) => <span id={`member-${m.id}`}>{m.email}</span>, rowHeader: true },
        { header: "Role", cell: (m) => roleLabel(m.role) },
        { header: "Member since", cell: (m) => day(m.createdAt) },
        {
          header: "Action",
          actions: true,
          cell: (m) => (
            <>
              <ConfirmStart href={`${PORTAL_ROUTE}/members/${m.id}/role`} label={m.role === "admin" ? "Make member" : "Make admin"} describedBy={`member-${m.id}`} />
              {m.id === p.viewer.memberId ? (
                <span class="muted"> You</span>
              ) : (
                <>
                  {m.role === "admin" ? (
                    // Only the operator replaces an admin's passkeys (issue 39 item 1).
                    <span class="muted"> Lost passkey: the operator sends a new link</span>
                  ) : (
                    <form method="post" action={`${PORTAL_ROUTE}/members/${m.id}/reinvite`}>
                      <FormToken token={p.formToken} />
                      <button type="submit" aria-label={`Send ${m.email} a new sign-in link (lost passkey)`}>
                        New sign-in link
                      </button>
                    </form>
                  )}
                  <ConfirmStart href={`${PORTAL_ROUTE}/members/${m.id}/remove`} label="Remove" danger describedBy={`member-${m.id}`} />
                </>
              )}
            </>
          ),
        },
      ]}
    />
    <h2>Pending invitations</h2>
    {p.invitations.length === 0 ? (
      <p class="muted">No invitation is waiting to be accepted.</p>
    ) : (
      <RecordTable
        label="Pending invitations"
        rows={p.invitations}
        columns={[
          { header: "Email", cell: (i) => i.email, rowHeader: true },
          { header: "Kind", cell: kindOf },
          { header: "Issued by", cell: issuerOf },
          { header: "Expires", cell: (i) => day(i.expiresAt) },
          {
            header: "Action",
            actions: true,
            cell: (i) => (
              <form method="post" action={`${PORTAL_ROUTE}/members/invitations/${i.id}/revoke`}>
                <FormToken token={p.formToken} />
                <button type="submit" aria-label={`Revoke the ${i.memberId ? "new sign-in link" : "invitation"} for ${i.email}`}>
                  Revoke
                </button>
              </form>
            ),
          },
        ]}
      />
    )}
    <h2>Invite a member</h2>
    <form method="post" action={`${PORTAL_ROUTE}/members/invitations`}>
      <FormToken token={p.formToken} />
      <label for="email">
        Email
        <RequiredMark />
      </label>
      <input
        type="email"
        id="email"
        name="email"
        required
        maxlength={254}
        autocomplete="off"
        value={p.draft?.email ?? ""}
        aria-describedby={p.feedback?.error?.field === "email" ? "email-error" : undefined}
        aria-invalid={p.feedback?.error?.field === "email" ? "true" : undefined}
        autofocus={p.feedback?.error?.field === "email" || undefined}
      />
      <FieldError field="email" error={p.feedback?.error} />
      <label for="role">Role</label>
      <select id="role" name="role" aria-describedby={p.feedback?.error?.field === "role" ? "role-error" : undefined}>
        {INVITATION_ROLES.map((role) => (
          <option value={role} selected={draftRole(p.draft) === role}>
            {role === "admin" ? "Admin: keys, webhooks, members and the audit log" : "Member: the work itself"}
          </option>
        ))}
      </select>
      <FieldError field="role" error={p.feedback?.error} />
      <button type="submit">Create invitation link</button>
    </form>
  </PortalPage>
);
