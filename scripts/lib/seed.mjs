// Seeds the demo organisations, keys and panel through the operator API,
// idempotently: organisations are found by name, keys are reused while they
// still authenticate, and the panel is replaced with the same data.
import { build } from "esbuild";
import { existsSync, readFileSync, writeFileSync } from "node:fs";

async function operator(url, token, method, path, body) {
  const res = await fetch(`${url}/admin/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function organisationNamed(url, token, name, kind) {
  const { organisations } = await operator(url, token, "GET", "/organisations");
  return organisations.find((o) => o.name === name && o.kind === kind) ?? operator(url, token, "POST", "/organisations", { name, kind });
}

async function stillWorks(url, key, kind) {
  if (!key) return false;
  const path = kind === "lender" ? "/v1/me" : kind === "publishable" ? "/partner/v1/enums" : "/partner/v1/me";
  const res = await fetch(`${url}${path}`, { headers: { "X-API-Key": key } });
  return res.ok;
}

async function keyFor(url, token, saved, name, organisation, environment, type = "secret", allowed_origins = []) {
  const kind = type === "publishable" ? "publishable" : organisation.kind;
  if (await stillWorks(url, saved[name], kind)) return saved[name];
  const issued = await operator(url, token, "POST", `/organisations/${organisation.id}/keys`, {
    environment,
    type,
    ...(type === "publishable" ? { allowed_origins } : {}),
  });
  return issued.key;
}

/** The demo panel is TypeScript in src/; bundle it once to read it here. */
export async function loadDemoPanel() {
  const result = await build({
    entryPoints: [new URL("./demo-panel-entry.ts", import.meta.url).pathname],
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
    logLevel: "silent",
  });
  const module = await import(`data:text/javascript;base64,${Buffer.from(result.outputFiles[0].text).toString("base64")}`);
  return module.demoPanel;
}

/** Returns the keys and organisation ids; saves keys to `keysFile` so the next run prints the same ones. */
export async function seedDemo({ url, adminToken, keysFile, origins }) {
  const saved = existsSync(keysFile) ? JSON.parse(readFileSync(keysFile, "utf8")) : {};
  const partner = await organisationNamed(url, adminToken, "Demo Partner", "partner");
  const keys = {
    partner_sandbox: await keyFor(url, adminToken, saved, "partner_sandbox", partner, "sandbox"),
    partner_live: await keyFor(url, adminToken, saved, "partner_live", partner, "live"),
    partner_publishable: await keyFor(url, adminToken, saved, "partner_publishable", partner, "sandbox", "publishable", origins),
  };
  const lenders = [];
  for (const lender of await loadDemoPanel()) {
    const organisation = await organisationNamed(url, adminToken, lender.name, "lender");
    await operator(url, adminToken, "PUT", `/organisations/${organisation.id}/products`, { products: lender.products });
    lenders.push({ ...organisation, products: lender.products.length });
  }
  if (lenders[0]) {
    keys.lender_live = await keyFor(url, adminToken, saved, "lender_live", lenders[0], "live");
    keys.lender_sandbox = await keyFor(url, adminToken, saved, "lender_sandbox", lenders[0], "sandbox");
  }
  writeFileSync(keysFile, JSON.stringify(keys, null, 2), { mode: 0o600 });
  return { partner, lenders, keys };
}
