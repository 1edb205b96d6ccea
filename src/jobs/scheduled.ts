import { deleteExpiredIdempotencyRecords } from "../db/identity/idempotency";
import { deleteExpiredChallenges } from "../db/portal/challenges";
import type { Bindings } from "../lib/env";
import { requeueOverdueLookups } from "../services/registers/lookups";
import { missingSecrets } from "../lib/signing-secret";
import { pruneExpiredHistory } from "../services/retention/retention";
import { sweepUnlandedUploads } from "../services/uploads/tracked-uploads";
import { sweepFormUses } from "../services/portal/form-uses";
import { sweepRefusedPosts } from "../services/portal/refused-posts";
import { dispatchPendingEvents, requeueOverdueDeliveries } from "../services/webhooks/dispatch";
import { DATA_ENVIRONMENTS, depsIn, depsOf, fixedClock } from "../services/deps";

/**
 * The every-minute cron: the outbox safety net, lost queue messages, expired
 * idempotency records and portal challenges, lost register lookups, objects
 * whose row never landed, and history past retention. `now` is the trigger's scheduled time. Each job runs to its end
 * even when another fails; a failure is retried by the next tick. One `Deps` per database serves the whole
 * tick (the trigger's time as its clock), not one per job. The control database's jobs (challenges, form
 * uses, refused posts) run once; the data jobs once per database (`live`, then `sandbox`: docs/capacity.md), named
 * `<job>` for live as before and `<job>:sandbox` for the sandbox's.
 */
export async function runScheduledWork(env: Bindings, now = new Date()) {
  const deps = depsOf(env, { clock: fixedClock(now) });
  const jobs: Record<string, () => Promise<unknown>> = {
    // Portal passkey challenges never answered (each lives five minutes).
    challenges: () => deleteExpiredChallenges(deps.db, Math.floor(now.getTime() / 1000)),
    // Single-use portal form tokens outlive no session (7 days at most).
    formUses: () => sweepFormUses(deps),
    // Refused form posts' pages nobody came back for (each waits ten minutes for its GET).
    refusedPosts: () => sweepRefusedPosts(deps),
  };
  const missing = missingSecrets(env);
  if (missing.length > 0) {
    // Webhook bodies carry signed links and deliveries are signed with sealed secrets: nothing can go out until it is set.
    deps.log.log("error", "service_misconfigured", { missing: missing.join(", "), detail: `webhook dispatch is paused until \`wrangler secret put ${missing[0]}\``, job: "scheduled" });
  }
  for (const environment of DATA_ENVIRONMENTS) {
    const data = depsIn(deps, environment);
    const name = (job: string) => (environment === "live" ? job : `${job}:${environment}`);
    jobs[name("idempotency")] = () => deleteExpiredIdempotencyRecords(data.db, Math.floor(now.getTime() / 1000));
    jobs[name("uploads")] = () => sweepUnlandedUploads(data);
    jobs[name("retention")] = () => pruneExpiredHistory(data);
    // Register lookups carry no secret of the service's own: their safety net runs whatever is configured.
    jobs[name("lookups")] = () => requeueOverdueLookups(data);
    if (missing.length === 0) {
      jobs[name("dispatch")] = () => dispatchPendingEvents(data);
      jobs[name("requeue")] = () => requeueOverdueDeliveries(data);
    }
  }
  const names = Object.keys(jobs);
  const settled = await Promise.allSettled(names.map((name) => jobs[name]!()));
  settled.forEach((result, i) => {
    if (result.status === "rejected") deps.log.logError("scheduled_job_failed", result.reason, { job: names[i] });
  });
  return Object.fromEntries(settled.map((result, i) => [names[i], result]));
}
