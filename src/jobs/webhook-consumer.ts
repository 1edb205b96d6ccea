/** The WEBHOOK_QUEUE consumer: one attempt per message, retries scheduled with the queue's own delay. */
import type { Bindings } from "../lib/env";
import { attemptScheduledDelivery, type DeliveryOptions } from "../services/webhooks/delivery";
import type { DeliveryMessage } from "../services/webhooks/dispatch";
import { depsOf } from "../services/deps";

/** Used when an attempt could not even be made (D1 unavailable…); the lease has passed by then. */
const INFRASTRUCTURE_RETRY_SECONDS = 60;

/**
 * `options` exists for tests (a shorter timeout); the worker's queue handler never passes it. One Deps
 * serves the whole batch, not one per message.
 */
export async function consumeWebhookDeliveries(batch: MessageBatch<DeliveryMessage>, env: Bindings, options: DeliveryOptions = {}) {
  const deps = depsOf(env);
  await Promise.all(
    batch.messages.map(async (message) => {
      const deliveryId = message.body?.delivery_id;
      if (typeof deliveryId !== "string") {
        message.ack();
        return;
      }
      try {
        const next = await attemptScheduledDelivery(deps, deliveryId, options);
        if (next.action === "retry") message.retry({ delaySeconds: next.delaySeconds });
        else message.ack();
      } catch (error) {
        deps.log.logError("webhook_consumer_failed", error, { delivery_id: deliveryId });
        message.retry({ delaySeconds: INFRASTRUCTURE_RETRY_SECONDS });
      }
    }),
  );
}
