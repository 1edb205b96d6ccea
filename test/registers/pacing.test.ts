import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { consumeRegisterLookups } from "../../src/jobs/register-consumer";
import type { SourcePacer } from "../../src/registers/context";
import { requestJson } from "../../src/registers/http";
import { CALL_BUDGETS, IN_FLIGHT_PER_REGISTER } from "../../src/registers/pacing";
import type { RegisterLookupMessage } from "../../src/services/registers/lookups";
import { durablePacer } from "../../src/services/registers/pacer";
import { testDeps } from "../helpers/deps";
import { runQueueBatch } from "../helpers/queue";
import { partnerWithKeys } from "../helpers/seed";
import { createLead } from "../leads/helpers";
import { dueMessages, ukLead } from "./lookups-support";
import { NOW, okStandIn, registerContext } from "./support/context";

const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
const chHeaders = (resetSeconds: number, remain = 0) =>
  new Headers({ "X-Ratelimit-Limit": "600", "X-Ratelimit-Remain": String(remain), "X-Ratelimit-Reset": String(NOW.getTime() / 1000 + resetSeconds), "X-Ratelimit-Window": "5m" });

/** A pacer of its own: its objects are named after a configuration no other test has. */
const createPacer = (): SourcePacer => durablePacer(testDeps(), crypto.randomUUID());

describe("pacing the registers (issue 22, item 7), in RegisterPacer objects", () => {
  it("no call before a 429's X-Ratelimit-Reset, and calls again after it", async () => {
    const pacer = createPacer();
    expect(await pacer.take("companies_house", NOW)).toBeNull();
    await pacer.observe("companies_house", 429, chHeaders(90), NOW);
    expect(await pacer.take("companies_house", at(1))).toBe(89);
    expect(await pacer.blockedFor("companies_house", at(89.5))).toBe(1);
    expect(await pacer.take("companies_house", at(90))).toBeNull();
    // Another register is not held up.
    expect(await pacer.take("vies", at(1))).toBeNull();
  });

  it("an answer saying the window is spent (Remain 0) stops calls until its reset", async () => {
    const pacer = createPacer();
    await pacer.observe("companies_house", 200, chHeaders(30, 0), NOW);
    expect(await pacer.blockedFor("companies_house", NOW)).toBe(30);
    await pacer.observe("companies_house", 200, chHeaders(30, 5), at(31));
    expect(await pacer.blockedFor("companies_house", at(31))).toBeNull();
  });

  it("spends at most the per-key budget in a window", async () => {
    const pacer = createPacer();
    const { calls, windowSeconds } = CALL_BUDGETS.companies_house;
    for (let i = 0; i < calls; i++) expect(await pacer.take("companies_house", at(i / 10))).toBeNull();
    expect(await pacer.take("companies_house", at(calls / 10))).toBe(Math.ceil(windowSeconds - calls / 10));
    expect(await pacer.take("companies_house", at(windowSeconds))).toBeNull();
  });

  it(`runs at most ${IN_FLIGHT_PER_REGISTER} lookups of one register at once`, async () => {
    const pacer = createPacer();
    let running = 0;
    let most = 0;
    const work = () =>
      pacer.inFlight("companies_house", async () => {
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 10));
        running--;
      });
    await Promise.all(Array.from({ length: 6 }, work));
    expect(most).toBe(IN_FLIGHT_PER_REGISTER);
  });

});

describe("pacing the registers", () => {
  it("a paced call never leaves: the register sees one request, the second is rate_limited with the wait", async () => {
    const { ctx, requests, logs } = registerContext("rate-limited");
    const paced = { ...ctx, pacer: createPacer() };
    const ask = () => requestJson(paced, { source: "companies_house", operation: "company_profile", url: `${ctx.config.companiesHouse.baseUrl}/company/01234567` });
    expect(await ask()).toEqual({ ok: false, failure: { reason: "rate_limited", status: 429, retryable: true, retryAfterSeconds: 120 } });
    expect(await ask()).toEqual({ ok: false, failure: { reason: "rate_limited", status: null, retryable: true, retryAfterSeconds: 120 } });
    expect(await requests()).toHaveLength(1);
    expect(logs.map((l) => l.outcome)).toEqual(["http_429", "paced"]);
  });
});

describe("parallel consumers (issue 40, item 5)", () => {
  it("spend one Companies House budget between them, whichever invocation asks, and the next invocations find it spent", { timeout: 60_000 }, async () => {
    const standIn = okStandIn();
    const testEnv = { ...env, ...(standIn.env as Partial<Cloudflare.Env>) };
    // A budget small enough to spend in a test; the window is Companies House's own.
    const budgets = { companies_house: { calls: 8, windowSeconds: 300 } };
    const { live } = await partnerWithKeys();
    const messages: RegisterLookupMessage[] = [];
    for (let i = 0; i < 8; i++) {
      const lead = await createLead(live.key, ukLead(i % 2 ? "01234567" : "07654321"));
      messages.push(...(await dueMessages(lead.id)).filter((m) => m.kind === "registry"));
    }
    expect(messages).toHaveLength(8);
    const consumeInParallel = (batches: RegisterLookupMessage[][]) =>
      Promise.all(batches.map((batch) => runQueueBatch("register-lookups", batch, { env: testEnv, consume: (b) => consumeRegisterLookups(b, testEnv, { budgets }) })));

    // Four invocations at once, as max_concurrency > 1 lets the queue run them.
    const runs = await consumeInParallel([0, 2, 4, 6].map((at) => messages.slice(at, at + 2)));
    const calls = (await standIn.requests()).filter((r) => r.service === "companies-house");
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.length).toBeLessThanOrEqual(budgets.companies_house.calls);
    // What the budget could not pay for is put back for the window's end, not asked.
    const retried = runs.flatMap((r) => r.retryMessages);
    expect(retried.length).toBeGreaterThan(0);
    expect(retried.every((m) => m.delaySeconds! > 0 && m.delaySeconds! <= 300)).toBe(true);

    // Later invocations (another isolate, for all they know) start from the same spent window.
    await env.DB.prepare(`update register_answers set due_at = ? where due_at is not null and owner_id in (${messages.map(() => "?").join(",")})`)
      .bind(new Date().toISOString(), ...messages.map((m) => m.owner_id))
      .run();
    await consumeInParallel([messages.slice(0, 4), messages.slice(4)]);
    expect((await standIn.requests()).filter((r) => r.service === "companies-house").length).toBe(calls.length);
  });
});
