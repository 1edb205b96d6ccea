/**
 * How long events and webhook deliveries (with their attempts) are kept. The
 * spec promises events listable for at least 30 days; the var
 * `EVENT_RETENTION_DAYS` chooses the period, never below that promise.
 */
export const DEFAULT_RETENTION_DAYS = 90;
export const MIN_RETENTION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The period the var asks for; an absent or unreadable value is the default, a short one is raised to the minimum. */
export function retentionDays(configured: string | undefined): number {
  const days = Number(configured);
  if (configured === undefined || configured.trim() === "" || !Number.isInteger(days) || days <= 0) return DEFAULT_RETENTION_DAYS;
  return Math.max(MIN_RETENTION_DAYS, days);
}

/** Rows created before this instant are past retention. */
export const retentionCutoff = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();

/**
 * The sandbox database's own period (`SANDBOX_RETENTION_DAYS`): the sandbox promises integrators nothing
 * past their test, so its events and deliveries go sooner. At least a day; absent or unreadable, a week.
 */
const DEFAULT_SANDBOX_RETENTION_DAYS = 7;
const MIN_SANDBOX_RETENTION_DAYS = 1;

export function sandboxRetentionDays(configured: string | undefined): number {
  const days = Number(configured);
  if (configured === undefined || configured.trim() === "" || !Number.isInteger(days) || days <= 0) return DEFAULT_SANDBOX_RETENTION_DAYS;
  return Math.max(MIN_SANDBOX_RETENTION_DAYS, days);
}
