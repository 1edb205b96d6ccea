/**
 * Issue 21 item 15: `CF-Connecting-IP` is believed only when the request came through Cloudflare
 * (`request.cf` present). A client that writes the header itself, rotating it on every request,
 * still counts against one bucket, so it cannot bypass the per-address limits.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PRODUCTION } from "../helpers/api";
import { clientAddress, UNATTRIBUTED_ADDRESS } from "../../src/lib/client-address";

const remaining = (header: string | null) => Number(/r=(\d+)/.exec(header ?? "")?.[1]);

/** A failed authentication with a forged address and no `request.cf`: a request that did not pass the edge. */
const forged = (address: string) =>
  exports.default.fetch(new Request(`${PRODUCTION}/partner/v1/me`, { headers: { "X-API-Key": "nope", "CF-Connecting-IP": address } }));

describe("issue 21 item 15: the client address", () => {
  it("item 15: believes CF-Connecting-IP only beside request.cf", () => {
    const edge = new Request("https://api.example/", { headers: { "CF-Connecting-IP": "203.0.113.5" }, cf: { colo: "LHR" } as never });
    expect(clientAddress(edge)).toBe("203.0.113.5");
    const direct = new Request("https://api.example/", { headers: { "CF-Connecting-IP": "203.0.113.5" } });
    expect(clientAddress(direct)).toBe(UNATTRIBUTED_ADDRESS);
    expect(clientAddress(new Request("https://api.example/", { cf: { colo: "LHR" } as never }))).toBe(UNATTRIBUTED_ADDRESS);
  });

  it("item 15: rotating a forged CF-Connecting-IP does not give failed authentications a fresh allowance", async () => {
    const first = await forged(`198.18.${Math.floor(Math.random() * 250)}.1`);
    expect(first.status).toBe(401);
    const before = remaining(first.headers.get("RateLimit"));
    const second = await forged(`198.18.${Math.floor(Math.random() * 250)}.2`);
    expect(second.status).toBe(401);
    // The same bucket counted both (other files may count into it too, so at least one less).
    expect(remaining(second.headers.get("RateLimit"))).toBeLessThan(before);
    expect(remaining(second.headers.get("RateLimit"))).toBeLessThan(119);
  });
});
