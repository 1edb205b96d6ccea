// A webhook receiver and a DNS-over-HTTPS mock for the workerd suite, run in Node by
// global-setup.mjs. The receiver verifies every delivery with implementations that
// share nothing with the service: node:crypto, the stripe library and the
// standardwebhooks library.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import Stripe from "stripe";
import { Webhook } from "standardwebhooks";

const stripe = new Stripe("sk_test_receiver");
const TOLERANCE_SECONDS = 300;

const readBody = (req) =>
  new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });

const json = (res, status, body) => {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
};

const safeEqual = (a, b) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The whole receiver guide in a few lines: what docs/webhooks.md tells integrators to do. */
function verifyWithNode(body, headers, secret) {
  const plain = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
  const header = headers["x-service-signature-256"] ?? "";
  const t = /(?:^|,)t=(\d+)/.exec(header)?.[1];
  const v1s = [...header.matchAll(/(?:^|,)v1=([0-9a-f]+)/g)].map((m) => m[1]);
  const expected = t ? createHmac("sha256", secret).update(`${t}.${body}`).digest("hex") : "";
  const fresh = t !== undefined && Math.abs(Date.now() / 1000 - Number(t)) <= TOLERANCE_SECONDS && t === headers["x-service-timestamp"];
  return {
    plain: safeEqual(headers["x-service-signature"] ?? "", plain),
    timestamped: fresh && v1s.some((v) => safeEqual(v, expected)),
  };
}

function verifyWithStripe(body, headers, secret) {
  try {
    stripe.webhooks.constructEvent(body, headers["x-service-signature-256"], secret, TOLERANCE_SECONDS);
    return true;
  } catch {
    return false;
  }
}

function verifyWithStandardWebhooks(body, headers, secret) {
  try {
    new Webhook(secret).verify(body, {
      "webhook-id": headers["webhook-id"],
      "webhook-timestamp": headers["webhook-timestamp"],
      "webhook-signature": headers["webhook-signature"],
    });
    return true;
  } catch {
    return false;
  }
}

export async function startReceiver() {
  /** bucket → { secrets: string[], records: [] } */
  const buckets = new Map();
  const bucket = (name) => {
    if (!buckets.has(name)) buckets.set(name, { secrets: [], records: [] });
    return buckets.get(name);
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://receiver");
    const parts = url.pathname.split("/").filter(Boolean);
    const body = await readBody(req);
    if (parts[0] === "secrets" && req.method === "POST") {
      bucket(parts[1]).secrets = JSON.parse(body).secrets;
      return json(res, 200, { ok: true });
    }
    if (parts[0] === "records" && req.method === "GET") return json(res, 200, bucket(parts[1]).records);
    if (parts[0] !== "r") return json(res, 404, {});
    const b = bucket(parts[1]);
    const behaviour = parts[2] ?? "ok";
    b.records.push({
      behaviour,
      headers: req.headers,
      body,
      verified: b.secrets.map((secret) => ({
        ...verifyWithNode(body, req.headers, secret),
        stripe: verifyWithStripe(body, req.headers, secret),
        standard: verifyWithStandardWebhooks(body, req.headers, secret),
      })),
    });
    // Hangs up without a status line: the sender sees a network error.
    if (behaviour === "close") return req.socket.destroy();
    // A redirect to `?to=<url>`: a sender that follows it would show up in that bucket's records.
    const redirect = /^redirect-(30[1278])$/.exec(behaviour);
    if (redirect) {
      res.writeHead(Number(redirect[1]), { Location: url.searchParams.get("to") ?? "/" });
      return res.end();
    }
    const sleep = /^sleep-(\d+)$/.exec(behaviour);
    if (sleep) {
      await new Promise((r) => setTimeout(r, Number(sleep[1])));
      if (!res.destroyed) json(res, 200, { ok: true });
      return;
    }
    const status = /^status-(\d{3})$/.exec(behaviour);
    if (status) {
      const headers = { "Content-Type": "application/json" };
      if (url.searchParams.has("retry_after")) headers["Retry-After"] = url.searchParams.get("retry_after");
      res.writeHead(Number(status[1]), headers);
      // `?body=<text>` (repeated `?repeat=<n>` times) answers that body instead of `{}`: what the delivery log records.
      const answer = url.searchParams.has("body") ? url.searchParams.get("body").repeat(Number(url.searchParams.get("repeat") ?? 1)) : "{}";
      return res.end(answer);
    }
    return json(res, 200, { received: true });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: server.address().port };
}

/**
 * DNS over HTTPS, JSON flavour. Unknown names resolve to a public documentation-free address;
 * `nxdomain.*` names do not exist. A zone set through POST /set may make either lookup fail the
 * ways a real resolver does: `fail: { A?: kind, AAAA?: kind }` with kind one of
 * "servfail" (Status 2), "refused" (Status 5), "nxdomain" (Status 3), "http-502",
 * "garbage" (a 200 that is not JSON) or "hang" (no answer until long after the service's timeout).
 */
export async function startDnsOverHttps() {
  const zones = new Map();
  const HANG_MS = 10_000;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://doh");
    const body = await readBody(req);
    if (url.pathname === "/set" && req.method === "POST") {
      const { name, A = [], AAAA = [], fail = {} } = JSON.parse(body);
      zones.set(name.toLowerCase(), { A, AAAA, fail });
      return json(res, 200, { ok: true });
    }
    if (url.pathname !== "/dns-query") return json(res, 404, {});
    const name = (url.searchParams.get("name") ?? "").toLowerCase();
    const type = url.searchParams.get("type");
    if (name.startsWith("nxdomain.")) return json(res, 200, { Status: 3 });
    const zone = zones.get(name) ?? { A: ["93.184.216.34"], AAAA: [], fail: {} };
    switch (zone.fail[type]) {
      case "servfail":
        return json(res, 200, { Status: 2 });
      case "refused":
        return json(res, 200, { Status: 5 });
      case "nxdomain":
        return json(res, 200, { Status: 3 });
      case "http-502":
        return json(res, 502, { error: "bad gateway" });
      case "garbage":
        res.writeHead(200, { "Content-Type": "text/html" });
        return res.end("<html>captive portal</html>");
      case "hang":
        setTimeout(() => res.destroyed || json(res, 200, { Status: 0, Answer: [] }), HANG_MS).unref();
        return;
    }
    const code = type === "AAAA" ? 28 : 1;
    const data = type === "AAAA" ? zone.AAAA : zone.A;
    return json(res, 200, { Status: 0, Answer: data.map((d) => ({ name, type: code, TTL: 60, data: d })) });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: server.address().port };
}
