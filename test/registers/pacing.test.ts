import { describe, expect, it } from "vitest";
import { requestJson } from "../../src/registers/http";
import { CALL_BUDGETS, createPacer, IN_FLIGHT_PER_REGISTER } from "../../src/registers/pacing";
import { NOW, registerContext } from "./support/context";

const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
const chHeaders = (resetSeconds: number, remain = 0) =>
  new Headers({ "X-Ratelimit-Limit": "600", "X-Ratelimit-Remain": String(remain), "X-Ratelimit-Reset": String(NOW.getTime() / 1000 + resetSeconds), "X-Ratelimit-Window": "5m" });

describe("pacing the registers (issue 22, item 7)", () => {
  it("no call before a 429's X-Ratelimit-Reset, and calls again after it", () => {
    const pacer = createPacer();
    expect(pacer.take("companies_house", NOW)).toBeNull();
    pacer.observe("companies_house", 429, chHeaders(90), NOW);
    expect(pacer.take("companies_house", at(1))).toBe(89);
    expect(pacer.blockedFor("companies_house", at(89.5))).toBe(1);
    expect(pacer.take("companies_house", at(90))).toBeNull();
    // Another register is not held up.
    expect(pacer.take("vies", at(1))).toBeNull();
  });

  it("an answer saying the window is spent (Remain 0) stops calls until its reset", () => {
    const pacer = createPacer();
    pacer.observe("companies_house", 200, chHeaders(30, 0), NOW);
    expect(pacer.blockedFor("companies_house", NOW)).toBe(30);
    pacer.observe("companies_house", 200, chHeaders(30, 5), at(31));
    expect(pacer.blockedFor("companies_house", at(31))).toBeNull();
  });

  it("spends at most the per-key budget in a window", () => {
    const pacer = createPacer();
    const { calls, windowSeconds } = CALL_BUDGETS.companies_house;
    for (let i = 0; i < calls; i++) expect(pacer.take("companies_house", at(i / 10))).toBeNull();
    expect(pacer.take("companies_house", at(calls / 10))).toBe(Math.ceil(windowSeconds - calls / 10));
    expect(pacer.take("companies_house", at(windowSeconds))).toBeNull();
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
