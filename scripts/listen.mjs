#!/usr/bin/env node
// `npm run listen -- --forward-to http://localhost:3000/hook`: Stripe's `listen`
// for the local service. Registers a webhook endpoint on the dev service that
// points at a receiver on this machine, prints every delivery as it arrives
// (event, event id, whether its signature verified), forwards it unchanged
// (same headers, same body bytes) to --forward-to and answers the service with
// what the forward answered, so retries behave as they would in production.
// Ctrl-C deletes the endpoint.
//
// The service accepts an http receiver on 127.0.0.1 only when it runs with
// ALLOW_PRIVATE_WEBHOOKS="true", which `npm run dev` sets.
import { createHmac, timingSafeEqual } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { serviceUrl } from "./lib/dev-server.mjs";

const USAGE = `Usage: npm run listen -- [--forward-to URL] [--api partner|lender] [--events a,b] [--api-key KEY] [--base-url URL] [--port N]

  --forward-to  where each delivery is forwarded (same headers and body); without it deliveries are printed and answered 200
  --api         partner (default) or lender: which API's webhooks to listen to
  --events      comma-separated event names (default: every event of that API)
  --api-key     default: the demo sandbox key of that API from .state/dev/demo-keys.json (written by npm run dev)
  --base-url    default: http://localhost:$PORT, else the running \`npm run dev\`, else PORT in .dev.vars, else 8787
  --port        local receiver port (default: a free one)`;

const TOLERANCE_SECONDS = 300;
const DEMO_KEYS = ".state/dev/demo-keys.json";
// Hop-by-hop and length headers are the forwarding connection's own.
const NOT_FORWARDED = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive"]);

function options() {
  const { values } = parseArgs({
    options: {
      "forward-to": { type: "string" },
      api: { type: "string", default: "partner" },
      events: { type: "string" },
      "api-key": { type: "string" },
      "base-url": { type: "string" },
      port: { type: "string", default: "0" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (!["partner", "lender"].includes(values.api)) fail(`--api must be partner or lender, not ${values.api}`);
  const demoKey = () => {
    if (!existsSync(DEMO_KEYS)) return undefined;
    return JSON.parse(readFileSync(DEMO_KEYS, "utf8"))[`${values.api}_sandbox`];
  };
  const apiKey = values["api-key"] ?? demoKey();
  if (!apiKey) fail(`no API key: pass --api-key, or start the service once with \`npm run dev\` so ${DEMO_KEYS} exists`);
  const service = serviceUrl(values["base-url"]);
  return {
    forwardTo: values["forward-to"],
    api: values.api,
    events: values.events?.split(",").map((e) => e.trim()).filter(Boolean),
    apiKey,
    baseUrl: service.url.replace(/\/+$/, ""),
    baseUrlSource: service.source,
    port: Number(values.port),
  };
}

function fail(message) {
  console.error(`listen: ${message}\n\n${USAGE}`);
  process.exit(2);
}

/** The receiver guide of docs/webhooks.md: X-Service-Signature-256, any v1, within the tolerance, constant-time. */
function verified(secret, body, header) {
  const t = /(?:^|,)t=(\d+)/.exec(header ?? "")?.[1];
  if (!t || Math.abs(Date.now() / 1000 - Number(t)) > TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(Buffer.concat([Buffer.from(`${t}.`), body])).digest("hex"));
  return [...(header ?? "").matchAll(/(?:^|,)v1=([0-9a-f]{64})/g)].some(([, v1]) => timingSafeEqual(Buffer.from(v1), expected));
}

const readBody = (req) =>
  new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });

async function forward(url, headers, body) {
  const outgoing = Object.fromEntries(Object.entries(headers).filter(([name]) => !NOT_FORWARDED.has(name)));
  try {
    const res = await fetch(url, { method: "POST", headers: outgoing, body, redirect: "manual", signal: AbortSignal.timeout(10_000) });
    await res.body?.cancel();
    return { status: res.status, text: String(res.status) };
  } catch (error) {
    // The service sees a failure and retries on its schedule, as it would with a real receiver that is down.
    return { status: 502, text: `failed (${error?.cause?.code ?? error?.name ?? error})` };
  }
}

async function api(o, method, path, body) {
  const res = await fetch(`${o.baseUrl}${o.api === "partner" ? "/partner/v1" : "/v1"}${path}`, {
    method,
    headers: { "X-API-Key": o.apiKey, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const o = options();
console.log(`Service ${o.baseUrl} (from ${o.baseUrlSource})`);
let secret = "";
const server = createServer(async (req, res) => {
  const body = await readBody(req);
  const event = req.headers["x-service-event"] ?? "?";
  const id = req.headers["webhook-id"] ?? "?";
  const ok = verified(secret, body, req.headers["x-service-signature-256"]);
  const outcome = o.forwardTo ? await forward(o.forwardTo, req.headers, body) : { status: 200, text: "not forwarded" };
  console.log(`${new Date().toISOString()}  ${event}  ${id}  ${ok ? "verified" : "NOT VERIFIED"}  -> ${outcome.text}`);
  res.writeHead(outcome.status).end();
});
await new Promise((resolve) => server.listen(o.port, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${server.address().port}/webhooks`;

let registered;
try {
  registered = await api(o, "POST", "/webhooks", { url: receiverUrl, ...(o.events ? { events: o.events } : {}) });
} catch (error) {
  server.close();
  fail(`cannot reach the service at ${o.baseUrl}, taken from ${o.baseUrlSource} (${error?.cause?.code ?? error}); is \`npm run dev\` running there?`);
}
if (registered.status !== 201) {
  server.close();
  const hint = registered.body?.error?.field === "url" ? " (the service must run with ALLOW_PRIVATE_WEBHOOKS=\"true\", as `npm run dev` does)" : "";
  fail(`registering ${receiverUrl} failed with ${registered.status} ${registered.body?.error?.code ?? ""}: ${registered.body?.detail ?? ""}${hint}`);
}
secret = registered.body.secret;
const endpointId = registered.body.id;

// Ctrl-C is handled before "Ready." is printed: whoever reads it may press Ctrl-C at once.
let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  try {
    const deleted = await api(o, "DELETE", `/webhooks/${endpointId}`);
    console.log(deleted.status === 204 ? `Deleted endpoint ${endpointId}.` : `Could not delete endpoint ${endpointId} (${deleted.status}); delete it by hand.`);
  } catch (error) {
    console.log(`Could not delete endpoint ${endpointId} (${error?.cause?.code ?? error}); delete it by hand.`);
  }
  server.close();
  process.exit(0);
}
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

console.log(`Listening for ${o.api} webhooks of ${o.baseUrl} (${registered.body.environment}) on ${receiverUrl}
  endpoint  ${endpointId}  events: ${registered.body.events.join(", ")}
  secret    ${secret}   (verify forwarded deliveries with it)
  forward   ${o.forwardTo ?? "(none: deliveries are answered 200)"}
  test      curl -s -X POST ${o.baseUrl}${o.api === "partner" ? "/partner/v1" : "/v1"}/webhooks/${endpointId}/test -H "X-API-Key: …"
Ready. Ctrl-C deletes the endpoint.`);


