import { inject } from "vitest";
import type { RegisterEnv } from "../../../src/registers/config";
import { sourceContextFrom, type SourceContext, type SourceLogEntry } from "../../../src/registers/context";
import credentials from "./credentials.json";

export { credentials };

/** Every register test runs on this clock, so ages in months are fixed. */
export const NOW = new Date("2026-11-23T12:00:00Z");

export type Scenario =
  | "ok"
  | "unauthorized"
  | "forbidden"
  | "rate-limited"
  | "server-error"
  | "redirect"
  | "malformed"
  | "wrong-shape"
  | "hang"
  | "live"
  | `fail-${string}`
  | `limit-${string}`;

export interface RecordedRequest {
  method: string;
  service: string;
  path: string;
  search: string;
  authorization: string | null;
  accept: string | null;
  userAgent: string | null;
  /** When the stand-in received it (epoch ms). */
  at: number;
  /** The live scenario's own answer (429, a VIES throttle), when it gave one. */
  answered?: number;
  /** The window reset it announced (X-Ratelimit-Reset, epoch ms), on a live 429. */
  resetAt?: number;
  body: string;
}

/**
 * A source context pointed at the register stand-in (test/registers/support/register-server.mjs),
 * under its own token so the requests this test made can be read back.
 */
export function registerContext(scenario: Scenario = "ok", options: { env?: Partial<RegisterEnv>; timeoutMs?: number } = {}) {
  const { env: standIn, requests } = standInOf(scenario);
  const env: RegisterEnv = { ...standIn, ...options.env };
  const logs: SourceLogEntry[] = [];
  // A generous timeout (the machine is shared); the hang scenario passes a short one.
  const ctx: SourceContext = sourceContextFrom(env, { timeoutMs: options.timeoutMs ?? 10_000, now: () => NOW, log: (entry) => logs.push(entry) });
  return { ctx, logs, requests };
}

/** Every register at the stand-in under a token of its own (`/{token}/{scenario}/…`), and the requests it received under that token. */
function standInOf(scenario: Scenario) {
  const server = inject("registerServerUrl");
  const token = crypto.randomUUID();
  const root = `${server}/${token}/${scenario}`;
  const env: RegisterEnv = {
    COMPANIES_HOUSE_API_URL: `${root}/companies-house`,
    COMPANIES_HOUSE_API_KEY: credentials.companiesHouseKey,
    HMRC_VAT_API_URL: `${root}/hmrc`,
    HMRC_CLIENT_ID: credentials.hmrcClientId,
    HMRC_CLIENT_SECRET: credentials.hmrcClientSecret,
    VIES_API_URL: `${root}/vies`,
    FR_API_URL: `${root}/fr`,
    KRS_API_URL: `${root}/krs`,
    ABN_LOOKUP_API_URL: `${root}/abn`,
    ABN_LOOKUP_GUID: credentials.abnGuid,
  };
  const requests = async (): Promise<RecordedRequest[]> => (await fetch(`${server}/__requests/${token}`)).json();
  return { env, requests };
}

/** The short timeout the "hang" scenario runs with: the stand-in never answers, so any value ends the same way. */
export const HANG_TIMEOUT_MS = 300;

/**
 * The stand-in's "live" scenario as Worker vars, for runs through the queue
 * consumer (which builds its own context from env): every register at
 * `/{token}/live/…`, and the requests it received.
 */
export const liveStandIn = () => standInOf("live");

/** The stand-in's "ok" scenario as Worker vars, for runs through the queue consumer. */
export const okStandIn = () => standInOf("ok");
