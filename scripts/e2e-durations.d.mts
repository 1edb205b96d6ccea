// Types for scripts/e2e-durations.mjs (read by test/unit/tooling/e2e-durations.test.ts).
export function e2eSeconds(
  cache: { results?: [string, { duration?: number; failed?: boolean }][] },
  previous: Record<string, number>,
  exists: (file: string) => boolean,
): Record<string, number>;
