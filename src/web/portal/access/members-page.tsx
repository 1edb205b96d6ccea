import { PORTAL_ROLES, type PortalRole, type PortalViewer } from "../../../domain/portal/viewer";
import { PORTAL_ROUTE } from "../context";
import { FieldError, FormToken, PortalPage, RequiredMark, type PageFeedback } from "../layout";
import { RecordTable } from "../../kit/table";
import { formatFor } from "../../kit/format";

export interface MemberLine {
  id: string;
  email: string;
  role: PortalRole;
  createdAt: string;
}

export interface PendingInvitationLine {
  id: string;
  email: string;
  role: PortalRole;
  expiresAt: string;
}

export interface MembersPageProps {
  viewer: PortalViewer;
  formToken: string;
  members: MemberLine[];
  /** Invitations that can still be accepted: each with Revoke, so none works unseen. */
  invitations: PendingInvitationLine[];
  feedback?: PageFeedback;
  /** The invitation just made: its link is on this answer and nowhere else, ever. */
  invited?: { email: string; url: string; expiresAt: string } | null;
  /** What was typed, put back after a refusal. */
  draft?: { email: string; role: string };
}

/** A moment in the kit's one form, UTC named (members belong to no one market): `8 Dec 2026, 06:24 UTC`. */
const day = (iso: string) => formatFor(null).time(iso);

export const membersPage = (p: MembersPageProps) => (
  <PortalPage title="Members" viewer={p.viewer} formToken={p.formToken} feedback={p.feedback}>
    {p.invited ? (
      <section aria-labelledby="invited-heading">
        <h2 id="invited-heading">Invitation for {p.invited.email}</h2>
        <p>Send this link to them. It is shown only now, works once and expires on {day(p.invited.expiresAt)}.</p>
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
        { header: "Email", cell: (m) => m.email, rowHeader: true },
        { header: "Role", cell: (m) => m.role },
        { header: "Member since", cell: (m) => day(m.createdAt) },
        {
          header: "Action",
          actions: true,
          cell: (m) =>
            m.id === p.viewer.memberId ? (
              <span class="muted">You</span>
            ) : (
              <form method="post" action={`${PORTAL_ROUTE}/members/${m.id}/remove`}>
                <FormToken token={p.formToken} />
                <button type="submit" aria-label={`Remove ${m.email}`}>
                  Remove
                </button>
              </form>
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
          { header: "Role", cell: (i) => i.role },
          { header: "Expires", cell: (i) => day(i.expiresAt) },
          {
            header: "Action",
            actions: true,
            cell: (i) => (
              <form method="post" action={`${PORTAL_ROUTE}/members/invitations/${i.id}/revoke`}>
                <FormToken token={p.formToken} />
                <button type="submit" aria-label={`Revoke the invitation for ${i.email}`}>
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
        {PORTAL_ROLES.map((role) => (
          <option value={role} selected={(p.draft?.role ?? "member") === role}>
            {role === "admin" ? "Admin: keys, webhooks, members and the audit log" : "Member: the work itself"}
          </option>
        ))}
      </select>
      <FieldError field="role" error={p.feedback?.error} />
      <button type="submit">Create invitation link</button>
    </form>
  </PortalPage>
);
