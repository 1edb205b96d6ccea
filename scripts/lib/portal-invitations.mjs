// Portal invitations for the demo organisations, so a newcomer running `npm run dev` can sign in
// with a passkey at once: one admin per demo organisation, invited through the operator API.
// Links are shown once (only their hash is kept), so each run makes fresh ones until the person
// has accepted; after that the operator API answers 409 and the person just signs in.

export const DEMO_PORTAL_ADMINS = { partner: "admin@demo-partner.example", lender: "admin@demo-lender.example" };

/** `{ link }` for a new invitation, or `{ member: true }` when that person already signed up. */
export async function demoInvitation({ url, adminToken, organisationId, email }) {
  const res = await fetch(`${url}/admin/v1/organisations/${organisationId}/invitations`, {
    method: "POST",
    headers: { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ email, role: "admin" }),
  });
  const body = await res.json().catch(() => ({}));
  if (res.status === 409) return { member: true };
  if (res.status !== 201) throw new Error(`POST /organisations/${organisationId}/invitations: ${res.status} ${JSON.stringify(body)}`);
  // The link starts at PUBLIC_URL; show it on the URL this run serves (the passkey belongs to that host).
  return { link: `${url}${new URL(body.url).pathname}` };
}

/** The lines `npm run dev` prints for one demo admin. */
export function invitationLines(label, email, invitation, signInUrl) {
  return invitation.member
    ? `  ${label} portal admin ${email} has a passkey: sign in at ${signInUrl}`
    : `  ${label} portal admin ${email}: open ${invitation.link}\n      (single use, 7 days; press "Create passkey", then you are signed in)`;
}
