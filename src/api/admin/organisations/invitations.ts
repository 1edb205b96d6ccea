import { createRoute, z } from "@hono/zod-openapi";
import { PORTAL_ROLES } from "../../../domain/portal/viewer";
import { errorResponses, jsonBody, jsonContent } from "../../openapi";
import type { Router } from "../../router";
import { Timestamp } from "../../shared/schemas/common";
import { CreateInvitation } from "../../shared/schemas/portal-invitation";
import { inviteMember } from "../../../services/portal/invitations";

export const Invitation = z
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

export function registerInvitationRoutes(router: Router) {
  router.openapi(createInvitationRoute, async (c) => {
    const issued = await inviteMember(c.get("db"), c.env.PUBLIC_URL, c.req.valid("param").id, c.req.valid("json"), "operator");
    c.header("Cache-Control", "no-store");
    return c.json(
      { id: issued.id, organisation_id: issued.organisationId, email: issued.email, role: issued.role, url: issued.url, expires_at: issued.expiresAt, created_at: issued.createdAt },
      201,
    );
  });
}
