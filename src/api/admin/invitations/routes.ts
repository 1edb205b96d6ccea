// The operator's invitations to an organisation's portal (and a current member's new sign-in link):
// under /organisations/{id}/, beside the organisation routes, with their own schemas and handlers.
import { createRoute, z } from "@hono/zod-openapi";
import { PORTAL_ROLES } from "../../../domain/portal/viewer";
import { errorResponses, jsonBody, jsonContent } from "../../openapi";
import { Timestamp } from "../../shared/schemas/common";
import { CreateInvitation } from "../../shared/schemas/portal-invitation";

const Invitation = z
  .object({
    id: z.string(),
    organisation_id: z.string(),
    email: z.string(),
    role: z.enum(PORTAL_ROLES),
    url: z.string().openapi({ description: "The single-use portal link (`/portal/invitations/<token>`). Shown once: only the token's SHA-256 is stored." }),
    expires_at: Timestamp,
    created_at: Timestamp,
  })
  .openapi("Invitation");

const IdParam = z.object({ id: z.string().max(64).openapi({ param: { name: "id", in: "path" } }) });

export const createInvitationRoute = createRoute({
  method: "post",
  path: "/organisations/{id}/invitations",
  summary: "Invite a person to the organisation's portal",
  description:
    "Answers a single-use link that expires in 7 days; the invitee opens it and registers a passkey. The link is shown once. Someone already a member of the organisation is a 409 on `email`.",
  tags: ["Operator"],
  security: [{ adminToken: [] }],
  request: { params: IdParam, body: jsonBody(CreateInvitation) },
  responses: { 201: jsonContent(Invitation, "The invitation, with its link shown once"), ...errorResponses("invalid_request", "not_found", "conflict", "unauthorized") },
});

const PendingInvitation = z
  .object({
    id: z.string(),
    organisation_id: z.string(),
    email: z.string(),
    role: z.enum(PORTAL_ROLES),
    member_id: z
      .string()
      .nullable()
      .openapi({ description: "Set on a new sign-in link: the current member whose passkeys and sessions it replaces when used. Null on an invitation of someone new." }),
    invited_by: z.string().openapi({ description: "`operator`, or the id of the member who invited." }),
    expires_at: Timestamp,
    created_at: Timestamp,
  })
  .openapi("PendingInvitation");

export const listInvitationsRoute = createRoute({
  method: "get",
  path: "/organisations/{id}/invitations",
  summary: "List the organisation's pending invitations",
  description:
    "The invitations that can still be accepted (not used, not revoked, not expired), oldest first. The links are never shown again: revoke one and issue a new invitation if a link is lost.",
  tags: ["Operator"],
  security: [{ adminToken: [] }],
  request: { params: IdParam },
  responses: { 200: jsonContent(z.object({ data: z.array(PendingInvitation) }), "The pending invitations"), ...errorResponses("not_found", "unauthorized") },
});

const InvitationParams = IdParam.extend({ invitation_id: z.string().max(64).openapi({ param: { name: "invitation_id", in: "path" } }) });

export const revokeInvitationRoute = createRoute({
  method: "delete",
  path: "/organisations/{id}/invitations/{invitation_id}",
  summary: "Revoke a pending invitation",
  description:
    "The link stops working at once; the revocation is written to the organisation's audit log as the operator's (`invitation.revoked`). A used, already revoked or another organisation's invitation is a 404.",
  tags: ["Operator"],
  security: [{ adminToken: [] }],
  request: { params: InvitationParams },
  responses: { 204: { description: "Revoked" }, ...errorResponses("not_found", "unauthorized") },
});

const SignInLink = Invitation.extend({
  member_id: z.string().openapi({ description: "The member whose passkeys and sessions the link replaces when used." }),
}).openapi("SignInLink");

const MemberParams = IdParam.extend({ member_id: z.string().max(64).openapi({ param: { name: "member_id", in: "path" } }) });

export const createSignInLinkRoute = createRoute({
  method: "post",
  path: "/organisations/{id}/members/{member_id}/sign-in-link",
  summary: "Send a current member a new sign-in link (lost passkey)",
  description:
    "A single-use link, shown once, that expires in 7 days. Whoever uses it makes a new passkey for this member, and in the same moment every passkey and session the member had is deleted; the member keeps their id and role. Confirm with the person, out of band, that they lost their passkey before sending it: an organisation's admins can make this link for a member whose role is `member`, but only the operator makes one for an admin. Written to the organisation's audit log as the operator's `member.reinvited`; listed under pending invitations with `member_id` set, and revoked like any of them. Another organisation's, a removed or an unknown member is a 404.",
  tags: ["Operator"],
  security: [{ adminToken: [] }],
  request: { params: MemberParams },
  responses: { 201: jsonContent(SignInLink, "The link, shown once"), ...errorResponses("not_found", "unauthorized") },
});
