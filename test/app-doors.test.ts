import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ADMIN_BASE } from "../src/api/admin";
import { LENDER_BASE } from "../src/api/lender";
import { PARTNER_BASE } from "../src/api/partner";
import { createApp, DOORS, doorOf } from "../src/app";
import { EMBED_ROUTE } from "../src/lib/embed-route";
import { APPLICATION_ROUTE, FILE_ROUTE, HUB_ROUTE } from "../src/lib/signed-links";
import { PORTAL_ROUTE } from "../src/web/portal/context";
import { expectProblem } from "./helpers/seed";

// The doors of src/app.ts are built on their first request (issue 25); these check the routing table
// they replace still sends every path where it went, not how fast (timing stays out of the suite).
describe("the service's doors", () => {
  it("uses each door's own base path as its prefix", () => {
    expect(DOORS.map((d) => d.prefix).sort()).toEqual(
      [PARTNER_BASE, LENDER_BASE, ADMIN_BASE, FILE_ROUTE, HUB_ROUTE, APPLICATION_ROUTE, PORTAL_ROUTE, "/docs", EMBED_ROUTE].sort(),
    );
  });

  it("matches a prefix and what lies below it, never a longer name or a suffix", () => {
    expect(doorOf("/partner/v1")?.prefix).toBe(PARTNER_BASE);
    expect(doorOf("/partner/v1/leads/abc")?.prefix).toBe(PARTNER_BASE);
    expect(doorOf("/v1/deals")?.prefix).toBe(LENDER_BASE);
    expect(doorOf("/v1x/deals")).toBeUndefined();
    expect(doorOf("/docsx")).toBeUndefined();
    expect(doorOf("/x/partner/v1")).toBeUndefined();
    expect(doorOf("/health")).toBeUndefined();
  });

  it("builds a door once for requests that arrive together, and answers each like the built door", async () => {
    const app = createApp();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => app.request("http://api.test/partner/v1/openapi.json", {}, env)),
    );
    const bodies = await Promise.all(answers.map((r) => r.text()));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0]).info.title).toMatch(/partner API/);
  });

  it("answers 405 from the door's own routes and 404 outside every door, with the shell's headers", async () => {
    const app = createApp();
    const wrongMethod = await app.request("http://api.test/partner/v1/oauth/token", { method: "GET" }, env);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("Allow")).toBe("POST");
    expect(wrongMethod.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const root = await app.request("http://api.test/", { method: "POST" }, env);
    expect(root.status).toBe(405);
    expect(root.headers.get("Allow")).toBe("GET");
    const nowhere = await app.request("http://api.test/nowhere", {}, env);
    expectProblem({ status: nowhere.status, body: await nowhere.json(), headers: nowhere.headers }, 404, "not_found");
  });
});
