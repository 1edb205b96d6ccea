import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOH_TIMEOUT_MS, dohTimeoutFrom, lookup } from "../../../src/services/webhooks/dns-over-https";

// The DNS-over-HTTPS timeout is 3 s unless DOH_TIMEOUT_MS says otherwise; only the workerd test suite sets it
// (vitest.config.mts), so test/webhooks/resolver-failures.test.ts waits a second, not three, per hanging resolver.
describe("the DNS-over-HTTPS timeout", () => {
  it("is 3 seconds without the binding, and whenever the binding is not a positive whole number of milliseconds", () => {
    expect(DOH_TIMEOUT_MS).toBe(3000);
    for (const raw of [undefined, "", " ", "0", "-5", "1.5", "abc", "3s"]) expect(dohTimeoutFrom(raw)).toBe(3000);
    expect(dohTimeoutFrom("1000")).toBe(1000);
  });

  describe("against a resolver that never answers", () => {
    let server: Server;
    let url: string;
    beforeAll(async () => {
      server = createServer(() => undefined);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      url = `http://127.0.0.1:${(server.address() as { port: number }).port}/dns-query`;
    });
    afterAll(() => {
      server.closeAllConnections();
      server.close();
    });

    it("gives up after the timeout it is given and says so in the lookup's words", async () => {
      const started = Date.now();
      expect(await lookup("hangs.example.test", "A", url, 200)).toEqual({ kind: "unavailable", why: "no answer within 0.2 seconds" });
      expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    });
  });
});
