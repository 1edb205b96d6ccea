import { inject } from "vitest";

/** A tiny integrator-side client: plain fetch against the running service. */
export const baseUrl = () => inject("baseUrl");
export const sandboxUrl = () => inject("sandboxUrl");

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
