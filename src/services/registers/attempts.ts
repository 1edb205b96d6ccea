/**
 * One attempt at a register lookup, as the REGISTER_LOOKUPS consumer makes it.
 *
 * - The row must still be the lookup the message names (same `lookup_id`,
 *   still due): a number changed meanwhile dropped or replaced it, and the
 *   message is simply acknowledged.
 * - The source is the sandbox's fixtures for a sandbox lead, the market's real
 *   register for a live one. Each HTTP call has its own timeout (the adapters'
 *   `timeoutMs`); the whole lookup has a budget beyond which it counts as a
 *   timeout.
 * - Every attempt stores its answer with `checked_at`, conditionally on the
 *   lookup id. A register that did not answer (timeout, outage, rate limit) is
 *   asked again on the retry schedule; a failed retry never replaces facts
 *   already stored.
 */
import { findLookup, postponeLookup, storeLookupResult } from "../../db/registers/answers";
import type { RegisterAnswerRow } from "../../db/schema/registers";
import { registryAsShown } from "../../domain/registers/facts";
import { nextLookupDelay } from "../../domain/registers/retry";
import type { RegisterQuery, RegistryAnswer, RegistryAvailable, RegistryUnavailable, VatAnswer } from "../../domain/registers/types";
import type { SourceContext } from "../../registers/context";
import { unavailable, type RegisterOutcome, type VatOutcome } from "../../registers/outcome";
import type { RegisterSource, VatSource } from "../../registers/source";
import { vatUnanswered } from "../../registers/vat";
import { logLookup, logLookupPostponed, logLookupSkipped } from "./lookup-log";
import type { RegisterLookupMessage } from "./lookups";
import type { Deps } from "../deps";

/** Which source answers a row: chosen by the lead's environment and market. */
export interface LookupSources {
  registry(environment: "sandbox" | "live", query: RegisterQuery): RegisterSource;
  vat(environment: "sandbox" | "live", country: string): VatSource | null;
}

export type AttemptDecision = { action: "ack" } | { action: "retry"; delaySeconds: number };

const ACK: AttemptDecision = { action: "ack" };

/** The most one whole lookup may take, beyond the per-call timeouts (a GB lookup makes several calls). */
export const LOOKUP_BUDGET_MS = 30_000;

type Outcome = RegisterOutcome | VatOutcome;

function timedOut(row: RegisterAnswerRow): Outcome {
  if (row.kind === "registry") return unavailable("timeout", { retryable: true, retryAfterSeconds: null });
  return vatUnanswered(row.number, "timeout", { retryable: true, retryAfterSeconds: null });
}

async function withinBudget(ask: Promise<Outcome>, budgetMs: number, onTimeout: () => Outcome): Promise<Outcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve(onTimeout()), budgetMs);
  });
  try {
    return await Promise.race([ask, late]);
  } finally {
    clearTimeout(timer);
  }
}

type Ask = { kind: RegisterAnswerRow["kind"]; environment: "sandbox" | "live"; country: string; number: string };

/** The source that answers for this environment, market and kind: its adapter's name (for the log) and the question. */
function sourceFor(sources: LookupSources, ask: Ask): { name: string | null; ask: (ctx: SourceContext) => Promise<Outcome> } {
  if (ask.kind === "registry") {
    const query: RegisterQuery = { country: ask.country, company_number: ask.number, us_state: null };
    const source = sources.registry(ask.environment, query);
    return { name: source.source, ask: (ctx) => source.lookup(query, ctx) };
  }
  const source = sources.vat(ask.environment, ask.country);
  // Rows exist only in markets that check VAT; a market without a VAT source answers why.
  if (!source) return { name: null, ask: async () => vatUnanswered(ask.number, "unavailable") };
  return { name: source.source, ask: (ctx) => source.check(ask.number, ctx) };
}

/** Asks the source that answers for this environment, market and kind. */
export const askSource = (sources: LookupSources, ctx: SourceContext, ask: Ask): Promise<Outcome> => sourceFor(sources, ask).ask(ctx);

/**
 * Whether the register gave this answer (facts, "no such number", a VAT
 * decision): the row's `checked_at` column says when, for the people who read
 * the portal. A register that did not answer, asked us to wait, or was never
 * asked (no source, no credentials) leaves it null.
 */
const registerAnswered = (kind: RegisterAnswerRow["kind"], answer: RegistryAnswer | VatAnswer) =>
  kind === "registry"
    ? (answer as RegistryAnswer).status === "available" || (answer as RegistryUnavailable).reason === "not_found"
    : (answer as VatAnswer).valid !== null;

/**
 * Whether the answer object itself carries `checked_at`: facts and VAT
 * decisions only. Any registry object with a `reason`, `not_found` included,
 * is exactly `{source, status, reason}` (decisions.md, "Company registers and VAT").
 */
const carriesCheckedAt = (kind: RegisterAnswerRow["kind"], answer: RegistryAnswer | VatAnswer) =>
  kind === "registry" ? (answer as RegistryAnswer).status === "available" : (answer as VatAnswer).valid !== null;

/** A message delivered before its row is due by more than this is put back (a duplicate, or one sent before a register's reset). */
const EARLY_SLACK_MS = 5_000;

/** The form without `checked_at`: a registry answer cut to `{source, status, reason}`; a VAT answer with `checked_at: null` (the object keeps its keys). */
function withoutCheckedAt(kind: RegisterAnswerRow["kind"], answer: RegistryAnswer | VatAnswer): RegistryAnswer | VatAnswer {
  if (kind === "vat") return { ...(answer as VatAnswer), checked_at: null };
  return registryAsShown(answer as RegistryAnswer);
}

/** An answer as it is stored and shown: `checked_at` on facts and VAT decisions, none (VAT: null) otherwise. */
export function answerAsStored(kind: RegisterAnswerRow["kind"], answer: RegistryAnswer | VatAnswer, now: Date): RegistryAnswer | VatAnswer {
  if (!carriesCheckedAt(kind, answer)) return withoutCheckedAt(kind, answer);
  const answered = answer as RegistryAvailable | VatAnswer;
  return { ...answered, checked_at: answered.checked_at ?? now.toISOString() };
}

/** When the register gave this answer, for the row's `checked_at` column: now for a "no such number" (its object has no key for it), the answer's own time for facts. */
export function answeredAt(kind: RegisterAnswerRow["kind"], answer: RegistryAnswer | VatAnswer, now: Date): string | null {
  if (!registerAnswered(kind, answer)) return null;
  return (answer as { checked_at?: string | null }).checked_at ?? now.toISOString();
}

/** The Queues limit for a retry delay. */
const MAX_DELAY_SECONDS = 43_200;

/** Whether an answer holds facts (an available register answer, a VAT check that decided). */
const holdsFacts = (kind: RegisterAnswerRow["kind"], answer: unknown) =>
  answer !== null && (kind === "registry" ? (answer as RegistryAnswer).status === "available" : (answer as VatAnswer).valid !== null);

export async function attemptLookup(deps: Deps, message: RegisterLookupMessage, sources: LookupSources, ctx: SourceContext, budgetMs = LOOKUP_BUDGET_MS): Promise<AttemptDecision> {
  const { db, log } = deps;
  const row = await findLookup(db, message.owner_id, message.kind);
  if (!row || row.lookupId !== message.lookup_id || row.dueAt === null) {
    logLookupSkipped(log, message);
    return ACK;
  }

  const source = sourceFor(sources, row);
  // Not yet due (the register's reset is on the row), or the register asked us to wait: put back, no attempt spent.
  const asked = ctx.now();
  const early = Date.parse(row.dueAt) - asked.getTime() > EARLY_SLACK_MS ? Math.ceil((Date.parse(row.dueAt) - asked.getTime()) / 1000) : null;
  const paced = early ?? (source.name && ctx.pacer ? await ctx.pacer.blockedFor(source.name, asked) : null);
  if (paced !== null) {
    const dueAt = early === null ? new Date(asked.getTime() + paced * 1000).toISOString() : row.dueAt;
    const kept = early !== null || (await postponeLookup(db, row.ownerId, row.kind, row.lookupId, dueAt, asked.toISOString()));
    logLookupPostponed(log, row, source.name, paced);
    return kept ? { action: "retry", delaySeconds: Math.min(paced, MAX_DELAY_SECONDS) } : ACK;
  }
  // Elapsed time, not the time of day (that is ctx.now()): a fixed Deps clock leaves it alone.
  const started = performance.now();
  const ask = () => withinBudget(source.ask(ctx), budgetMs, () => timedOut(row));
  const outcome = ctx.pacer && source.name ? await ctx.pacer.inFlight(source.name, ask) : await ask();
  const durationMs = Math.round(performance.now() - started);
  const now = ctx.now();
  const attempts = row.attempts + 1;
  const delay = outcome.retryable ? nextLookupDelay(attempts, outcome.retryAfterSeconds) : null;
  const fresh = answerAsStored(row.kind, outcome.answer, now);
  // A retry that failed keeps the facts an earlier attempt stored.
  const keepEarlier = holdsFacts(row.kind, row.answer) && !holdsFacts(row.kind, fresh);
  const answer = keepEarlier ? row.answer : fresh;
  const stored = await storeLookupResult(db, row.ownerId, row.kind, row.lookupId, {
    answer,
    checkedAt: keepEarlier ? row.checkedAt : answeredAt(row.kind, fresh, now),
    attempts,
    dueAt: delay === null ? null : new Date(now.getTime() + delay * 1000).toISOString(),
    at: now.toISOString(),
  });
  logLookup(log, { row, source: source.name, attempt: attempts, answer: fresh, keptEarlier: keepEarlier, stored, retryInSeconds: delay, durationMs });
  if (!stored || delay === null) return ACK;
  return { action: "retry", delaySeconds: delay };
}
