import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import worker from "../../src/index";

/**
 * Hands `bodies` to a queue consumer as the Queues runtime would (one message each, delivered for the
 * `attempts`th time), and reads what it decided. The worker's own queue handler consumes them with
 * `env`, unless `consume` calls a consumer directly (with options the handler never passes).
 * getQueueResult of @cloudflare/vitest-pool-workers 0.15 keeps which messages were retried but not
 * their delaySeconds, so the delay each retry() asked for is noted on the way through.
 */
export async function runQueueBatch<Body>(
  queue: string,
  bodies: readonly Body[],
  options: { env: Cloudflare.Env; attempts?: number; consume?: (batch: MessageBatch<Body>) => Promise<void> },
) {
  const batch = createMessageBatch<Body>(
    queue,
    bodies.map((body, i) => ({ id: `${queue}-${i}-${crypto.randomUUID()}`, timestamp: new Date(), attempts: options.attempts ?? 1, body })),
  );
  const delays = new Map<string, number | undefined>();
  for (const message of batch.messages) {
    const retry = message.retry.bind(message);
    Object.defineProperty(message, "retry", {
      value: (retryOptions?: QueueRetryOptions) => {
        delays.set(message.id, retryOptions?.delaySeconds);
        retry(retryOptions);
      },
    });
  }
  const ctx = createExecutionContext();
  const handler = worker.queue as unknown as (batch: MessageBatch<unknown>, env: Cloudflare.Env, ctx: ExecutionContext) => Promise<void>;
  if (options.consume) await options.consume(batch);
  else await handler(batch as MessageBatch<unknown>, options.env, ctx);
  const result = await getQueueResult(batch, ctx);
  return { ...result, retryMessages: result.retryMessages.map((r) => ({ ...r, delaySeconds: r.delaySeconds ?? delays.get(r.msgId) })) };
}
