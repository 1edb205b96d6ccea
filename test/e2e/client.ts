import { inject } from "vitest";

/**
 * The service of the calling file's lane. The e2e run has one `wrangler dev` per vitest worker (global
 * setup starts `maxWorkers` of them); a file runs on the lane of its worker slot (`VITEST_POOL_ID`,
 * 1 to maxWorkers, never held by two running files at once), so the files of a lane run one after the
 * other against their own service, as the whole run did on one service before.
 */
export function lane() {
  const lanes = inject("lanes");
  const slot = Number(process.env.VITEST_POOL_ID ?? "1");
  return lanes[(slot - 1) % lanes.length];
}

/** A tiny integrator-side client: plain fetch against the running service. */
export const baseUrl = () => lane().baseUrl;
export const sandboxUrl = () => lane().sandboxUrl;

export async function http(method: string, url: string, init: { headers?: Record<string, string>; body?: unknown; raw?: string } = {}) {
  const headers = { ...init.headers };
  let body: string | undefined = init.raw;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers["Content-Type"] ??= "application/json";
  }
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    /* keep text */
  }
  return { status: res.status, headers: res.headers, body: json, text };
}

export const operator = (method: string, path: string, body?: unknown) =>
  http(method, `${baseUrl()}/admin/v1${path}`, { headers: { Authorization: `Bearer ${inject("adminToken")}` }, body });

export async function newPartner() {
  const org = (await operator("POST", "/organisations", { name: `e2e partner ${Date.now()}`, kind: "partner" })).body;
  const sandbox = (await operator("POST", `/organisations/${org.id}/keys`, { environment: "sandbox" })).body;
  const live = (await operator("POST", `/organisations/${org.id}/keys`, { environment: "live" })).body;
  return { org, sandbox, live };
}

export async function newLender() {
  const org = (await operator("POST", "/organisations", { name: `e2e lender ${Date.now()}`, kind: "lender" })).body;
  const sandbox = (await operator("POST", `/organisations/${org.id}/keys`, { environment: "sandbox" })).body;
  const live = (await operator("POST", `/organisations/${org.id}/keys`, { environment: "live" })).body;
  return { org, sandbox, live };
}
