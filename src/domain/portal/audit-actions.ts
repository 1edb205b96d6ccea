/**
 * The portal's audit action names (portal_audit_log.action, written by services/portal/audit.ts
 * and the db/portal batches) with the words a person reads on the audit page. The names stay
 * stable in the log; only the labels are shown. Pure.
 */
export const AUDIT_ACTIONS = [
  { value: "session.opened", label: "Signed in" },
  { value: "session.ended", label: "Signed out" },
  { value: "session.stepped_up", label: "Confirmed it was them with a passkey" },
  { value: "environment.switched", label: "Switched environment" },
  { value: "member.invited", label: "Invited a member" },
  { value: "member.reinvited", label: "Sent a member a new sign-in link" },
  { value: "member.joined", label: "Joined the organisation" },
  { value: "member.reenrolled", label: "Made a new passkey with a sign-in link" },
  { value: "member.removed", label: "Removed a member" },
  { value: "member.role_changed_to_admin", label: "Made a member an admin" },
  { value: "member.role_changed_to_member", label: "Made an admin a member" },
  { value: "invitation.revoked", label: "Revoked an invitation" },
  { value: "member.settings_changed", label: "Changed their settings (name, time zone)" },
  { value: "passkey.added", label: "Added a passkey" },
  { value: "passkey.removed", label: "Removed a passkey" },
  { value: "key.created", label: "Created an API key" },
  { value: "key.revoked", label: "Revoked an API key" },
  { value: "webhook.registered", label: "Added a webhook endpoint" },
  { value: "webhook.updated", label: "Changed a webhook endpoint" },
  { value: "webhook.secret_rotated", label: "Rotated a webhook signing secret" },
  { value: "webhook.deleted", label: "Deleted a webhook endpoint" },
  { value: "webhook.reactivated", label: "Reactivated a webhook endpoint" },
  { value: "webhook.test_sent", label: "Sent a test webhook" },
  { value: "webhook.delivery_resent", label: "Resent a webhook delivery" },
  { value: "lead.created", label: "Saved a lead draft" },
  { value: "lead.amended", label: "Changed a lead" },
  { value: "lead.submitted", label: "Submitted a lead" },
  { value: "lead.renewed", label: "Renewed a lead" },
  { value: "lead.hub_link_rotated", label: "Made a new hub link" },
  { value: "lead.application_link_sent", label: "Made a link for the client to fill in the application" },
  { value: "lead.person_added", label: "Added a person to a lead" },
  { value: "lead.person_changed", label: "Changed a person on a lead" },
  { value: "lead.person_removed", label: "Removed a person from a lead" },
  { value: "lead.simulated_offers", label: "Simulated new offers (sandbox)" },
  { value: "lead.simulated_decline", label: "Simulated a decline (sandbox)" },
  { value: "lead.simulated_fund", label: "Simulated funding (sandbox)" },
  { value: "document.uploaded", label: "Uploaded a document" },
  { value: "document.removed", label: "Removed a rejected document" },
  { value: "prequalification.checked", label: "Checked prequalification" },
  { value: "offer.accepted", label: "Accepted an offer" },
  { value: "offer.declined", label: "Declined an offer for the client" },
  { value: "offer.made", label: "Made an offer" },
  { value: "deal.status_reported", label: "Reported a deal's status" },
  { value: "message.sent", label: "Sent a message to the client" },
  { value: "document.requested", label: "Requested a document" },
  { value: "request.waived", label: "Waived a document request" },
  { value: "agreement.uploaded", label: "Uploaded the agreement" },
  { value: "deal.assigned", label: "Assigned a deal" },
  { value: "deal.note_added", label: "Added an internal note to a deal" },
  { value: "payout_account.revealed", label: "Viewed a deal's payout account in full" },
  { value: "test_deal.created", label: "Created a test deal" },
  { value: "test_deal.deleted", label: "Deleted a test deal" },
  { value: "test_deal.simulated", label: "Simulated an event on a test deal" },
  { value: "commission.paid", label: "Paid commission to the firm" },
  { value: "attribution.released", label: "Released the firm's hold on a company" },
] as const;

const API_KEY_ACTOR = "api_key:";

/** The audit entry's `member_id` for a change made with an API key: the key's client id, as the API keys page lists it. */
export const apiKeyActor = (clientId: string) => `${API_KEY_ACTOR}${clientId}`;

/** The client id of an API key's audit entry; null for a member's or the operator's. */
export const apiKeyOfActor = (memberId: string) => (memberId.startsWith(API_KEY_ACTOR) ? memberId.slice(API_KEY_ACTOR.length) : null);

/** Member roles with the words the Members page shows. */
export const ROLE_LABELS = [
  { value: "admin", label: "Admin" },
  { value: "member", label: "Member" },
] as const;

/** The two environments as a person reads them. */
export const ENVIRONMENT_LABELS = [
  { value: "sandbox", label: "Sandbox" },
  { value: "live", label: "Live" },
] as const;
