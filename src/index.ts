import { createApp } from "./app";
import type { Bindings } from "./lib/env";
import { consumeRegisterLookups } from "./jobs/register-consumer";
import { consumeWebhookDeliveries } from "./jobs/webhook-consumer";
import { runScheduledWork } from "./jobs/scheduled";
import type { DeliveryMessage } from "./services/webhooks/dispatch";

export { RateLimiter } from "./durable-objects/rate-limiter";
export { dispatchPendingEvents } from "./services/webhooks/dispatch";

const app = createApp();

/** The queue name of the REGISTER_LOOKUPS binding in wrangler.toml; every other batch is webhook deliveries. */
const REGISTER_LOOKUPS_QUEUE = "register-lookups";

export default {
  fetch: app.fetch,
  queue: (batch, env) =>
    batch.queue === REGISTER_LOOKUPS_QUEUE ? consumeRegisterLookups(batch, env) : consumeWebhookDeliveries(batch as MessageBatch<DeliveryMessage>, env),
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduledWork(env, new Date(controller.scheduledTime)));
  },
} satisfies ExportedHandler<Bindings>;
