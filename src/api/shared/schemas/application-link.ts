import { z } from "@hono/zod-openapi";
import { APPLICATION_LINK_STATES, LOCKABLE_FIELDS, MAX_EXPIRES_IN_SECONDS, MIN_EXPIRES_IN_SECONDS } from "../../../domain/leads/application-link";
import { Timestamp } from "./common";

const guide = "[Application link](/docs/guides/application-link)";

export const ApplicationLinkCreate = z
  .strictObject({
    expires_in: z
      .number()
      .int()
      .min(MIN_EXPIRES_IN_SECONDS)
      .max(MAX_EXPIRES_IN_SECONDS)
      .optional()
      .openapi({ description: `Seconds the link works; default 604800 (7 days), at least ${MIN_EXPIRES_IN_SECONDS}, at most ${MAX_EXPIRES_IN_SECONDS} (30 days).` }),
    locked: z
      .array(z.enum(LOCKABLE_FIELDS as [string, ...string[]]))
      .max(LOCKABLE_FIELDS.length)
      .optional()
      .openapi({ description: "Field paths the business sees but cannot change (what you filled in and vouch for); `significant_persons` locks the whole list." }),
    return_url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .optional()
      .openapi({ description: "Where the business may go back to: shown on the done page and on the page a dead link shows." }),
    submit: z
      .enum(["auto", "review"])
      .optional()
      .openapi({ description: "`review` (default): the completed application waits, ready, for your submit. `auto`: it is submitted at once, as your submit would." }),
  })
  .openapi("ApplicationLinkCreate");

export const ApplicationLinkStatus = z
  .object({
    id: z.string().openapi({ example: "apl_0k3m9q2x7c4v8b1n5h6j2d0f" }),
    state: z.enum(APPLICATION_LINK_STATES as [string, ...string[]]).openapi({ description: `\`sent\`, \`opened\`, \`completed\`, \`expired\` or \`revoked\`. ${guide}.` }),
    submit: z.enum(["auto", "review"]),
    locked: z.array(z.string()),
    return_url: z.string().nullable(),
    expires_at: Timestamp,
    created_at: Timestamp,
    opened_at: Timestamp.nullable(),
    completed_at: Timestamp.nullable(),
    revoked_at: Timestamp.nullable(),
  })
  .openapi("ApplicationLinkStatus");

export const ApplicationLinkCreated = ApplicationLinkStatus.extend({
  url: z.string().openapi({
    description: "The link to send to the business; shown this once (only its hash is stored). Sandbox leads' links are on the sandbox host, live leads' on the production host.",
  }),
}).openapi("ApplicationLinkCreated");

export const ApplicationLinkEventDetail = z.object({ id: z.string(), expires_at: Timestamp }).openapi({ description: "The link (never its token)." });
