/** The WEBHOOK_QUEUE consumer: one attempt per message, retries scheduled with the queue's own delay. */
import type { Bindings } from "../lib/env";
import { attemptScheduledDelivery, type DeliveryOptions } from "../services/webhooks/delivery";
import type { DeliveryMessage } from "../services/webhooks/dispatch";
import { depsOf, type Deps } from "../services/deps";
import { environmentOfMessage } from "./message-environment";

/** Used when an attempt could not even be made (D1 unavailable…); the lease has passed by then. */
const INFRASTRUCTURE_RETRY_SECONDS = 60;

/**
 * `options` exists for tests (a shorter timeout); the worker's queue handler never passes it. One Deps
 * per database serves the whole batch, not one per message: a message names its delivery's environment,
 * and one without it (sent before the sandbox had its own database) is read from `DB`, as then.
 */
export async function consumeWebhookDeliveries(batch: MessageBatch<DeliveryMessage>, env: Bindings, options: DeliveryOptions = {}) {
  const byEnvironment = new Map<string, Deps>();
  const depsFor = (body: unknown) => {
    const environment = environmentOfMessage(body);
    if (!byEnvironment.has(environment)) byEnvironment.set(environment, depsOf(env, { environment }));
    return byEnvironment.get(environment)!;
  };
  await Promise.all(
    batch.messages.map(async (message) => {
      const deliveryId = message.body?.delivery_id;
      if (typeof deliveryId !== "string") {
        message.ack();
        return;
      }
      const deps = depsFor(message.body);
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
