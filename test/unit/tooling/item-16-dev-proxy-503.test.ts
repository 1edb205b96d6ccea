/**
 * Issue 21 item 16: the text/plain 503s the black-box run saw under CPU starvation are `wrangler
 * dev`'s own, not the service's. Every request to `wrangler dev` passes through wrangler's
 * ProxyWorker (node_modules/wrangler/wrangler-dist/ProxyWorker.js), which forwards it to the
 * Worker. When that forwarding fails (on a starved machine: a connection to the Worker's runtime
 * reset or refused), the ProxyWorker checks whether the Worker restarted by comparing the URL it
 * forwarded to, which keeps the request's path, with the Worker's base URL, which has none; the two
 * differ for every path but `/`, so a failed POST, PUT or DELETE is always answered with its
 * "restarted" 503: text/plain, `Retry-After: 0`, though nothing restarted, and the Worker never saw
 * the request. This test runs the installed ProxyWorker itself against a Worker address that
 * refuses connections and checks it gives exactly the answer captured under load
 * (docs/operations.md "Security", item 16). If wrangler changes this, the test fails and the
 * paragraph must be revisited.
 */
import { createServer } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";

/** A local port nothing listens on: bound, read, closed. */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The captured answer (repro: `wrangler dev`, load 14-16 on 2 cores, 800 concurrent key creations). */
const CAPTURED_BODY = "Your worker restarted mid-request. Please try sending the request again. Only GET or HEAD requests are retried automatically.";

describe("issue 21 item 16: the text/plain 503 under load is wrangler dev's", () => {
  it("item 16: wrangler's ProxyWorker answers a POST it failed to forward with the text/plain 'restarted' 503, though nothing restarted", async () => {
    // workerd's Headers has getAll("Set-Cookie"), which the ProxyWorker calls; Node's spells it getSetCookie.
    type NodeHeaders = Headers & { getSetCookie(): string[] };
    const proto = Headers.prototype as unknown as { getAll?: (this: NodeHeaders, name: string) => string[] };
    const added = proto.getAll === undefined;
    if (added) proto.getAll = function (name) {
      return name.toLowerCase() === "set-cookie" ? this.getSetCookie() : [this.get(name) ?? ""];
    };
    onTestFinished(() => {
      if (added) delete proto.getAll;
    });
    // @ts-expect-error: wrangler's built ProxyWorker ships without type declarations.
    const { ProxyWorker } = await import("wrangler/wrangler-dist/ProxyWorker.js");
    const proxy = new ProxyWorker({}, {});
    // The Worker's runtime as the ProxyController hands it over (protocol, hostname, port), unreachable.
    proxy.proxyData = { userWorkerUrl: { protocol: "http:", hostname: "127.0.0.1", port: String(await closedPort()) }, headers: {} };

    const res: Response = await proxy.fetch(
      new Request("http://localhost:8787/admin/v1/organisations/org_x/keys", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }),
    );
    expect(res.status).toBe(503);
    expect(res.headers.get("Content-Type")).toBe("text/plain;charset=UTF-8");
    expect(res.headers.get("Retry-After")).toBe("0");
    expect(await res.text()).toBe(CAPTURED_BODY);
  });
});
