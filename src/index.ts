import { createApp } from "./app";
import type { Bindings } from "./lib/env";
import { consumeRegisterLookups } from "./jobs/register-consumer";
import { consumeWebhookDeliveries } from "./jobs/webhook-consumer";
import { runScheduledWork } from "./jobs/scheduled";
import type { DeliveryMessage } from "./services/webhooks/dispatch";

export { KeyAuthority } from "./durable-objects/key-authority";
export { dispatchPendingEvents } from "./services/webhooks/dispatch";

const app = createApp();

/**
 * Which consumer a batch goes to, by its queue's name: `register-lookups` and every environment's
 * variant of it (`register-lookups-staging`, `register-lookups-local`, wrangler.toml) are register
 * lookups; every other queue is webhook deliveries.
 */
export const queueKindOf = (queue: string): "register-lookups" | "webhook-deliveries" =>
  /^register-lookups(-[a-z0-9-]+)?$/.test(queue) ? "register-lookups" : "webhook-deliveries";

export default {
  fetch: app.fetch,
  queue: (batch, env) =>
    queueKindOf(batch.queue) === "register-lookups" ? consumeRegisterLookups(batch, env) : consumeWebhookDeliveries(batch as MessageBatch<DeliveryMessage>, env),
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduledWork(env, new Date(controller.scheduledTime)));
  },
} satisfies ExportedHandler<Bindings>;
