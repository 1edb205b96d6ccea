import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

export interface Received {
  headers: Record<string, string>;
  raw: string;
}

/** An integrator's webhook receiver: keeps the raw body, answers 200. */
export async function startReceiver() {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers as Record<string, string>, raw: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    async waitFor(predicate: (r: Received) => boolean, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const hit = received.find(predicate);
        if (hit) return hit;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no matching delivery within ${timeoutMs} ms; got ${received.map((r) => r.headers["x-service-event"]).join(", ")}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The receiver guide's verification, in plain node:crypto. */
export function verifyWithNodeCrypto(secret: string, raw: string, headers: Record<string, string>, toleranceSeconds = 300) {
  const hmac = (message: string) => createHmac("sha256", secret).update(message).digest("hex");
  const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

  const plain = same(`sha256=${hmac(raw)}`, headers["x-service-signature"]);
  const parts = Object.fromEntries(headers["x-service-signature-256"].split(",").map((p) => p.split("=") as [string, string]));
  const fresh = Math.abs(Date.now() / 1000 - Number(parts.t)) <= toleranceSeconds;
  const timestamped = fresh && same(parts.v1, hmac(`${parts.t}.${raw}`));
  return { plain, timestamped };
}
