import { createApp } from "./app";
import type { Bindings } from "./lib/env";
import type { DeliveryMessage } from "./services/webhooks/dispatch";

export { KeyAuthority } from "./durable-objects/key-authority";
export { RegisterPacer } from "./durable-objects/register-pacer";

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
  // The consumers and the cron work (with the register adapters' response schemas) load on their first
  // batch or tick, not when an isolate starts to answer a request.
  async queue(batch, env) {
    if (queueKindOf(batch.queue) === "register-lookups") return (await import("./jobs/register-consumer")).consumeRegisterLookups(batch, env);
    return (await import("./jobs/webhook-consumer")).consumeWebhookDeliveries(batch as MessageBatch<DeliveryMessage>, env);
  },
  async scheduled(controller, env, ctx) {
    const { runScheduledWork } = await import("./jobs/scheduled");
    ctx.waitUntil(runScheduledWork(env, new Date(controller.scheduledTime)));
  },
} satisfies ExportedHandler<Bindings>;
