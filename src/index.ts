import { createApp } from "./app";
import type { Bindings } from "./lib/env";

export { RateLimiter } from "./durable-objects/rate-limiter";

const app = createApp();

export default {
  fetch: app.fetch,
  async queue(batch) {
    // The webhook delivery consumer arrives with the webhooks work; until then nothing is enqueued.
    batch.ackAll();
  },
} satisfies ExportedHandler<Bindings>;
