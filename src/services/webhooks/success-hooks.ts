/**
 * What other areas must do when a delivery of one of their events succeeds.
 * decisions.md: a document request becomes `forwarded` on the first successful
 * `request.fulfilled` delivery (or the first files read, whichever comes first).
 *
 * The request id is read from the body the delivery sent (`data.request.id`);
 * the forward is a conditional update confined to the delivery's organisation
 * and environment, so re-sends and later deliveries change nothing.
 */
import type { WebhookDeliveryRow } from "../../db/webhooks/webhooks";
import type { Deps } from "../deps";
import { forwardRequest } from "../documents/requests";

type SuccessHook = (deps: Deps, delivery: WebhookDeliveryRow, body: string) => Promise<void>;

/** The request a `request.fulfilled` body is about; null for a body that names none. */
function fulfilledRequestId(body: string): string | null {
  const id = (JSON.parse(body) as { data?: { request?: { id?: unknown } } }).data?.request?.id;
  return typeof id === "string" ? id : null;
}

export const DELIVERY_SUCCESS_HOOKS: Partial<Record<string, SuccessHook>> = {
  "request.fulfilled": async (deps, delivery, body) => {
    const id = fulfilledRequestId(body);
    if (id) await forwardRequest(deps, { organisationId: delivery.organisationId, environment: delivery.environment }, id);
  },
};

export async function afterSuccessfulDelivery(deps: Deps, delivery: WebhookDeliveryRow, body: string) {
  const hook = DELIVERY_SUCCESS_HOOKS[delivery.event];
  if (!hook) return;
  try {
    await hook(deps, delivery, body);
  } catch (error) {
    // The delivery did succeed; a failing hook must not make the queue send it again.
    deps.log.logError("webhook_success_hook_failed", error, { delivery_id: delivery.id, event_type: delivery.event });
  }
}
