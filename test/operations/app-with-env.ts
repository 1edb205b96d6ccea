import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createApp } from "../../src/app";
import type { Bindings } from "../../src/lib/env";
import { PRODUCTION } from "../helpers/api";
import { contractProblems } from "../helpers/contract";

/**
 * The app's own fetch with the suite's bindings changed: how a deployment
 * configured differently (no SIGNING_SECRET, DEPLOYMENT=production, a D1 that
 * must not be touched) answers, without a second worker.
 */
export async function callWith(overrides: Partial<Record<keyof Bindings, unknown>>, method: string, path: string, init: { key?: string; body?: unknown; host?: string; cookie?: string } = {}) {
  const headers: Record<string, string> = {};
  if (init.cookie) headers.Cookie = init.cookie;
  if (init.key) headers["X-API-Key"] = init.key;
  if (init.body !== undefined) headers["Content-Type"] = "application/json";
  const request = new Request(`${init.host ?? PRODUCTION}${path}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const ctx = createExecutionContext();
  const res = await createApp().fetch(request, { ...env, ...overrides } as Bindings, ctx);
  await waitOnExecutionContext(ctx);
  const text = await res.text();
  // Judged like every answer of test/helpers/api.ts: declared status, schema-valid body.
  const problems = await contractProblems(method, path, { status: res.status, headers: res.headers, text });
  if (problems.length > 0) throw new Error(`The answer breaks the API document:\n- ${problems.join("\n- ")}\nbody: ${text.slice(0, 2000)}`);
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body, text };
}
