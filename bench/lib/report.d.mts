// Types for the Node test of the bench's verdicts (test/unit/bench-targets.test.ts).
export type Target = { target: string; measured: number | string; holds: boolean };
export function evaluateTargets(report: unknown): Target[];
export function printReport(report: unknown): void;
