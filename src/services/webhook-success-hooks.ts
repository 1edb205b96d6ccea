/**
 * What other areas must do when a delivery of one of their events succeeds.
 * decisions.md: a document request becomes `forwarded` on the first successful
 * `request.fulfilled` delivery (or the first files read, whichever comes first).
 *
 * LEAD ENGINEER / documents area, TO WIRE: add
 *   "request.fulfilled": (env, delivery) => markRequestForwarded(env, <request id from the stored body's data.request.id>)
 * The hook must be idempotent (a conditional update): re-sends succeed too.
 */
import type { WebhookDeliveryRow } from "../db/webhooks";
import type { Bindings } from "../lib/env";

type SuccessHook = (env: Pick<Bindings, "DB">, delivery: WebhookDeliveryRow) => Promise<void>;

export const DELIVERY_SUCCESS_HOOKS: Partial<Record<string, SuccessHook>> = {};

export async function afterSuccessfulDelivery(env: Pick<Bindings, "DB">, delivery: WebhookDeliveryRow) {
  const hook = DELIVERY_SUCCESS_HOOKS[delivery.event];
  if (!hook) return;
  try {
    await hook(env, delivery);
  } catch (error) {
    // The delivery did succeed; a failing hook must not make the queue send it again.
    console.error(JSON.stringify({ level: "error", at: "webhook-success-hook", delivery_id: delivery.id, event: delivery.event, error: String(error) }));
  }
}
