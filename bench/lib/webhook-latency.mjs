// Webhook latency as a receiver sees it: a local HTTP receiver answers 200 at
// once and notes when each delivery arrived; each iteration submits a lead and
// measures from the moment the submit was sent to the receiver's 2xx. Every
// committed event must arrive exactly once (by event id) or it counts as lost.
import { createServer } from "node:http";

const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];

export function startReceiver() {
  const arrivals = new Map(); // lead id → [arrival ms, …]
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const at = performance.now();
      res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
      let key = body;
      try {
        key = String(JSON.parse(body).data.lead_id);
      } catch {
        /* not a lead event: kept under its body, so it shows as unexpected rather than vanishing */
      }
      arrivals.set(key, [...(arrivals.get(key) ?? []), at]);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${server.address().port}/hook`, arrivals, close: () => new Promise((r) => server.close(r)) }),
    ),
  );
}

/**
 * @param {{ receiver: Awaited<ReturnType<typeof startReceiver>>, iterations: number, makeLead: () => Promise<string>, submit: (id: string) => Promise<void> }} options
 */
export async function measureWebhookLatency({ receiver, iterations, makeLead, submit, settleMs = 5000 }) {
  const sentAt = new Map();
  for (let i = 0; i < iterations; i++) {
    const id = await makeLead();
    sentAt.set(id, performance.now());
    await submit(id);
    // Wait for this one before the next, up to a second: sequential, so each figure is one delivery's own latency.
    const deadline = performance.now() + 1000;
    while (!receiver.arrivals.has(id) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 2));
  }
  const settleBy = performance.now() + settleMs;
  while ([...sentAt.keys()].some((id) => !receiver.arrivals.has(id)) && performance.now() < settleBy) await new Promise((r) => setTimeout(r, 50));

  const latencies = [];
  let lost = 0;
  let duplicates = 0;
  for (const [id, sent] of sentAt) {
    const arrived = receiver.arrivals.get(id);
    if (!arrived) {
      lost++;
      continue;
    }
    duplicates += arrived.length - 1;
    latencies.push(arrived[0] - sent);
  }
  latencies.sort((a, b) => a - b);
  return {
    events: sentAt.size,
    delivered: latencies.length,
    lost,
    duplicates,
    p50_ms: latencies.length ? Number(percentile(latencies, 0.5).toFixed(1)) : null,
    p99_ms: latencies.length ? Number(percentile(latencies, 0.99).toFixed(1)) : null,
    max_ms: latencies.length ? Number(latencies.at(-1).toFixed(1)) : null,
  };
}
