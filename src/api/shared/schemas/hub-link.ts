import { z } from "@hono/zod-openapi";
import { Timestamp } from "./common";

/** The answer to `POST /partner/v1/leads/{id}/hub-link`: the lead's new client-hub link. */
export const HubLink = z
  .object({
    id: z.string().openapi({ description: "The lead's id." }),
    upload_url: z.string().openapi({ description: "The new client-hub link; the lead's `upload_url` from now on. The previous link stopped working." }),
    expires_at: Timestamp.openapi({ description: "When the link stops working (30 days after it was issued); rotate again for a new one." }),
  })
  .openapi("HubLink");
