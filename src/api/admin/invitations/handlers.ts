import type { Router } from "../../router";
import { inviteMember, pendingInvitationsOf, reinviteMember, revokeInvitationOf } from "../../../services/portal/invitations";
import { createInvitationRoute, createSignInLinkRoute, listInvitationsRoute, revokeInvitationRoute } from "./routes";

export function registerInvitationRoutes(router: Router) {
  router.openapi(createSignInLinkRoute, async (c) => {
    const { id, member_id } = c.req.valid("param");
    const issued = await reinviteMember(c.get("deps"), { organisationId: id, memberId: "operator", environment: "sandbox" }, member_id);
    c.header("Cache-Control", "no-store");
    return c.json(
      {
        id: issued.id,
        organisation_id: issued.organisationId,
        email: issued.email,
        role: issued.role,
        member_id: member_id,
        url: issued.url,
        expires_at: issued.expiresAt,
        created_at: issued.createdAt,
      },
      201,
    );
  });

  router.openapi(listInvitationsRoute, async (c) => {
    const pending = await pendingInvitationsOf(c.get("deps"), c.req.valid("param").id);
    c.header("Cache-Control", "no-store");
    return c.json(
      {
        data: pending.map((p) => ({
          id: p.id,
          organisation_id: p.organisationId,
          email: p.email,
          role: p.role,
          member_id: p.memberId,
          invited_by: p.invitedBy,
          expires_at: p.expiresAt,
          created_at: p.createdAt,
        })),
      },
      200,
    );
  });

  router.openapi(revokeInvitationRoute, async (c) => {
    const { id, invitation_id } = c.req.valid("param");
    await revokeInvitationOf(c.get("deps"), id, invitation_id, { memberId: "operator", environment: "sandbox" });
    return c.body(null, 204);
  });

  router.openapi(createInvitationRoute, async (c) => {
    const issued = await inviteMember(c.get("deps"), c.req.valid("param").id, c.req.valid("json"), "operator");
    c.header("Cache-Control", "no-store");
    return c.json(
      { id: issued.id, organisation_id: issued.organisationId, email: issued.email, role: issued.role, url: issued.url, expires_at: issued.expiresAt, created_at: issued.createdAt },
      201,
    );
  });
}
