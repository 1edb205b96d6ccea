import { z } from "@hono/zod-openapi";
import { PORTAL_ROLES } from "../../../domain/portal/viewer";
import { DisplayName } from "./portal-member";

/** One schema for an invitation, whether the operator API or an organisation's admin in the portal makes it. */
export const CreateInvitation = z
  .strictObject({
    email: z.email().max(254).openapi({ example: "ops@acme-introducers.example" }),
    role: z.enum(PORTAL_ROLES).openapi({ description: "`admin`: keys, webhooks, members and the audit log besides the work; `member`: leads or deals." }),
    display_name: DisplayName.optional(),
  })
  .openapi("CreateInvitation");
