import { createRoute, z } from "@hono/zod-openapi";
import type { WebhookApi } from "../../../domain/webhooks/subscriptions";
import { errorResponses, jsonContent, security } from "../../openapi";
import { Timestamp } from "../schemas/common";
import { EventsQuery } from "../schemas/webhooks";

export const EventItem = z
  .object({
    id: z.string().openapi({ example: "evt_5n2k8c0x1m3p9q7r4s6t0u2v" }),
    event: z.string(),
    created_at: Timestamp,
    environment: z.enum(["sandbox", "live"]),
    livemode: z.boolean(),
    api_version: z.string(),
    subject: z.object({ type: z.enum(["deal", "lead", "referral"]), id: z.string() }),
    data: z.record(z.string(), z.unknown()).openapi({ description: "The `reference` payload of the event." }),
  })
  .openapi("Event");

export const listEventsRoute = (api: WebhookApi) =>
  createRoute({
    method: "get",
    path: "/events",
    summary: "Events of the caller's organisation in its environment, newest first",
    description: "For reconciliation and replay: every event that was (or will be) sent to webhooks, kept 90 days (the `EVENT_RETENTION_DAYS` var; never less than 30), then deleted.",
    tags: ["Webhooks"],
    security: security[api],
    request: {
      query: EventsQuery(api),
    },
    responses: {
      200: jsonContent(z.object({ events: z.array(EventItem), next_cursor: z.string().nullable() }), "A page of events"),
      ...errorResponses("invalid_request"),
    },
  });
