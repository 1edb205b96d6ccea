/** The REGISTER_LOOKUPS consumer: one attempt per message; a register that did not answer is retried with the queue's own delay. */
import type { Bindings } from "../lib/env";
import { attemptLookup } from "../services/registers/attempts";
import type { RegisterLookupMessage } from "../services/registers/lookups";
import { lookupContext, lookupSources } from "../services/registers/sources";
import { depsOf, type Deps } from "../services/deps";
import { environmentOfMessage } from "./message-environment";

/** Used when the attempt could not even be made (D1 unavailable…). */
const INFRASTRUCTURE_RETRY_SECONDS = 60;

const isLookupMessage = (body: unknown): body is RegisterLookupMessage => {
  const b = body as Partial<RegisterLookupMessage> | null;
  return !!b && typeof b.owner_id === "string" && typeof b.lookup_id === "string" && (b.kind === "registry" || b.kind === "vat");
};

/** Knobs for tests only: the worker's queue handler never passes them, so the budgets of pacing.ts hold. */
export interface LookupConsumerOptions {
  budgets?: Parameters<typeof lookupContext>[1];
}

/**
 * One source context for the whole batch, and one Deps per database, not one per message: a message
 * names its lead's environment, and one without it (sent before the sandbox had its own database) is read from `DB`.
 */
export async function consumeRegisterLookups(batch: MessageBatch<unknown>, env: Bindings, options: LookupConsumerOptions = {}) {
  const ctx = lookupContext(depsOf(env), options.budgets);
  const byEnvironment = new Map<string, Deps>();
  const depsFor = (body: unknown) => {
    const environment = environmentOfMessage(body);
    if (!byEnvironment.has(environment)) byEnvironment.set(environment, depsOf(env, { environment }));
    return byEnvironment.get(environment)!;
  };
  await Promise.all(
    batch.messages.map(async (message) => {
      if (!isLookupMessage(message.body)) {
        message.ack();
        return;
      }
      const deps = depsFor(message.body);
      try {
        const next = await attemptLookup(deps, message.body, lookupSources, ctx);
        if (next.action === "retry") message.retry({ delaySeconds: next.delaySeconds });
        else message.ack();
      } catch (error) {
        // Never the number or the owner's details in a log line: the owner's id and the kind find the row.
        deps.log.logError("register_consumer_failed", error, { owner_id: message.body.owner_id, kind: message.body.kind });
        message.retry({ delaySeconds: INFRASTRUCTURE_RETRY_SECONDS });
      }
    }),
  );
}
