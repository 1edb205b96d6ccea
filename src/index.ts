import { createApp } from "./app";
import type { Bindings } from "./lib/env";
import { consumeRegisterLookups } from "./queues/register-consumer";
import { consumeWebhookDeliveries } from "./queues/webhook-consumer";
import { runScheduledWork } from "./scheduled";
import type { DeliveryMessage } from "./services/webhook-dispatch";

export { RateLimiter } from "./durable-objects/rate-limiter";
export { dispatchPendingEvents } from "./services/webhook-dispatch";

const app = createApp();

/** The queue name of the REGISTER_LOOKUPS binding in wrangler.toml; every other batch is webhook deliveries. */
const REGISTER_LOOKUPS_QUEUE = "register-lookups";

export default {
  fetch: app.fetch,
  queue: (batch, env) =>
    batch.queue === REGISTER_LOOKUPS_QUEUE ? consumeRegisterLookups(batch, env) : consumeWebhookDeliveries(batch as MessageBatch<DeliveryMessage>, env),
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(runScheduledWork(env));
  },
} satisfies ExportedHandler<Bindings>;
