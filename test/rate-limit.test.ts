import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { KeyAuthority } from "../src/durable-objects/key-authority";
import { call, newClientAddress, ownAddress } from "./helpers/api";
import { createOrganisation, expectProblem, issueKey, partnerWithKeys } from "./helpers/seed";

describe("rate limit: 120 requests per one-minute window per key", () => {
  it("sends RateLimit headers on every response and 429 on the 121st", async () => {
    const { live, sandbox } = await partnerWithKeys();
    const first = await call("GET", "/partner/v1/me", { key: live.key });
    expect(first.headers.get("RateLimit-Policy")).toBe('"default";q=120;w=60');
    expect(first.headers.get("RateLimit")).toMatch(/^"default";r=119;t=\d+$/);

    let res = first;
    for (let i = 2; i <= 121; i++) res = await call("GET", "/partner/v1/me", { key: live.key });
    expectProblem(res, 429, "rate_limited");
    const retryAfter = Number(res.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(res.headers.get("RateLimit")).toMatch(/^"default";r=0;/);

    // The window is per key: another key of the same organisation is untouched.
    expect((await call("GET", "/partner/v1/me", { key: sandbox.key })).status).toBe(200);
  }, 60_000);

  it("counts failed authentication against the caller's address", async () => {
    // An address of its own: a fixed one would be counted again by any other file that used it in the same minute.
    const res = await call("GET", "/partner/v1/me", { headers: { "X-API-Key": "nope", ...ownAddress() } });
    expectProblem(res, 401, "unauthorized");
    expect(res.headers.get("RateLimit")).toMatch(/^"default";r=119;/);
  });
});

// Issue 39 item 5: a publishable key sits in the partner's page source, and any script that sent no
// Origin could spend its whole 120 a minute, so the partner's real widget got 429.
describe("a publishable key's fair share per client address", () => {
  const SHOP = "https://shop.example";
  const body = { country: "GB", funding: { purpose: "working_capital", amount: 50_000 } };
  /** The share the suite runs with: wrangler.toml's PUBLISHABLE_SHARE_PER_ADDRESS. */
  const SHARE = Number(env.PUBLISHABLE_SHARE_PER_ADDRESS);
  const publishable = async () => (await issueKey((await createOrganisation("partner")).id, "live", "publishable", [SHOP])).key;
  /** A script's request: no Origin, from one address. */
  const scripted = (key: string, address: string) => call("GET", "/partner/v1/enums/purposes", { key, headers: { "CF-Connecting-IP": address } });

  it("refuses one address past its share with the spec's 429 while other visitors keep prequalifying", async () => {
    expect(SHARE).toBeGreaterThan(0);
    expect(SHARE).toBeLessThan(120);
    const key = await publishable();
    const bot = newClientAddress();
    const first = await scripted(key, bot);
    expect(first.status).toBe(200);
    expect(first.headers.get("RateLimit-Policy")).toBe(`"default";q=120;w=60, "address";q=${SHARE};w=60`);
    expect(first.headers.get("RateLimit")).toMatch(new RegExp(`^"default";r=119;t=\\d+, "address";r=${SHARE - 1};t=\\d+$`));
    let last = first;
    for (let i = 2; i <= 121; i++) last = await scripted(key, bot);
    expectProblem(last, 429, "rate_limited");
    expect(Number(last.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(last.headers.get("RateLimit")).toMatch(new RegExp(`^"default";r=${120 - SHARE};t=\\d+, "address";r=0;t=\\d+$`));
    expect(last.body.detail).toContain(`${SHARE} of this publishable key's 120`);

    // The partner's widget, from its visitors' own addresses, keeps working.
    for (let visitor = 0; visitor < 3; visitor++) {
      const res = await call("POST", "/partner/v1/prequalification", { key, body, headers: { Origin: SHOP, "CF-Connecting-IP": newClientAddress() } });
      expect(res.status).toBe(200);
      expect(res.headers.get("Access-Control-Allow-Origin")).toBe(SHOP);
    }
  }, 60_000);

  it("keeps the spec's 120 a minute for the key however many addresses share it", async () => {
    const key = await publishable();
    const addresses = Array.from({ length: Math.ceil(120 / SHARE) + 1 }, newClientAddress);
    let admitted = 0;
    let last;
    for (const address of addresses) {
      for (let i = 0; i < SHARE; i++) {
        last = await scripted(key, address);
        if (last.status === 200) admitted++;
      }
    }
    expect(admitted).toBe(120);
    expectProblem(last!, 429, "rate_limited");
    expect(last!.headers.get("RateLimit")).toMatch(/^"default";r=0;/);
    expect(last!.body.detail).toContain("More than 120 requests");
  }, 60_000);

  it("gives a secret key no per-address share: its server is one address", async () => {
    const { live } = await partnerWithKeys();
    const server = newClientAddress();
    for (let i = 0; i <= SHARE; i++) expect((await call("GET", "/partner/v1/me", { key: live.key, headers: { "CF-Connecting-IP": server } })).status).toBe(200);
    const res = await call("GET", "/partner/v1/me", { key: live.key, headers: { "CF-Connecting-IP": server } });
    expect(res.headers.get("RateLimit-Policy")).toBe('"default";q=120;w=60');
    expect(res.headers.get("RateLimit")).toMatch(new RegExp(`^"default";r=${120 - SHARE - 2};t=\\d+$`));
  });
});

describe("KeyAuthority durable object", () => {
  const stub = () => env.KEY_AUTHORITY.get(env.KEY_AUTHORITY.idFromName(`unit:${crypto.randomUUID()}`));

  it("opens a new window once the previous one has passed", async () => {
    const limiter = stub();
    const t0 = 1_000_000;
    expect(await limiter.hit(2, 60, t0)).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 60 });
    expect(await limiter.hit(2, 60, t0 + 1_000)).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 59 });
    expect(await limiter.hit(2, 60, t0 + 30_000)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 30 });
    expect(await limiter.hit(2, 60, t0 + 60_000)).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 60 });
  });

  it("persists the window so a restarted instance keeps counting", async () => {
    const id = env.KEY_AUTHORITY.idFromName(`unit:${crypto.randomUUID()}`);
    const limiter = env.KEY_AUTHORITY.get(id);
    await limiter.hit(5, 60, 2_000_000);
    await limiter.hit(5, 60, 2_000_001);
    // Abort the instance: its memory is dropped and the next request builds a new one.
    await expect(runInDurableObject(limiter, (_instance: KeyAuthority, state) => state.abort("restart for the test"))).rejects.toThrow();
    const restarted = env.KEY_AUTHORITY.get(id);
    const memory = await runInDurableObject(restarted, (instance: KeyAuthority) => (instance as unknown as { requests: { current?: unknown } }).requests.current);
    expect(memory).toBeUndefined();
    expect(await restarted.hit(5, 60, 2_000_002)).toMatchObject({ allowed: true, remaining: 2 });
  });

  // Issue 25: every request wrote the window to storage, a storage transaction per authenticated request.
  const storedWindow = (limiter: DurableObjectStub<KeyAuthority>) =>
    runInDurableObject(limiter, (_instance: KeyAuthority, state) => state.storage.get<{ startedAt: number; count: number }>("window"));

  it("writes its stored window once per block of a twentieth of the limit, never below the count it handed out", async () => {
    const limiter = stub();
    const t0 = 3_000_000;
    let writes = 0;
    let last: { startedAt: number; count: number } | undefined;
    for (let i = 1; i <= 120; i++) {
      const verdict = await limiter.hit(120, 60, t0 + i);
      expect(verdict).toMatchObject({ allowed: true, remaining: 120 - i });
      const stored = await storedWindow(limiter);
      if (JSON.stringify(stored) !== JSON.stringify(last)) writes++;
      last = stored;
      expect(stored!.count).toBeGreaterThanOrEqual(i);
    }
    expect(writes).toBe(20);
    // A new window starts a new block.
    expect(await limiter.hit(120, 60, t0 + 60_001)).toMatchObject({ allowed: true, remaining: 119 });
    expect(await storedWindow(limiter)).toEqual({ startedAt: t0 + 60_001, count: 6 });
  });

  it("an instance started again resumes from the stored ceiling: it may refuse early, never hand out more than the limit", async () => {
    const id = env.KEY_AUTHORITY.idFromName(`unit:${crypto.randomUUID()}`);
    const limiter = env.KEY_AUTHORITY.get(id);
    for (let i = 0; i < 7; i++) await limiter.hit(120, 60, 4_000_000 + i);
    // 7 handed out; the stored ceiling is the second block's end, 12.
    expect(await storedWindow(limiter)).toEqual({ startedAt: 4_000_000, count: 12 });
    await expect(runInDurableObject(limiter, (_instance: KeyAuthority, state) => state.abort("restart for the test"))).rejects.toThrow();
    const restarted = env.KEY_AUTHORITY.get(id);
    expect(await restarted.hit(120, 60, 4_000_010)).toMatchObject({ allowed: true, remaining: 107 });
  });
});
