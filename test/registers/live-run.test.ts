/**
 * Issue 22, "Done when": leads looked up through the real queue consumer
 * against a stand-in that answers like the live services (the stand-in's
 * "live" scenario, test/registers/support/register-server.mjs): Companies
 * House's 429 with its X-Ratelimit-* headers and no Retry-After, the array
 * insolvency status, a corporate director; VIES `_TIME` throttles (both forms)
 * that turn valid on retry. Every lead's answer ends correct, and the
 * stand-in's request log shows no register called before its reset or after
 * a complete answer.
 */
import { describe, expect, it } from "vitest";
import type { RegisterLookupMessage } from "../../src/services/registers/lookups";
import { call } from "../helpers/api";
import { partnerWithKeys } from "../helpers/seed";
import { completeUkLead, createLead } from "../leads/helpers";
import { consumeLookups, delayPassed, dueMessages, lookupRows, ukLead } from "./lookups-support";
import { liveStandIn } from "./support/context";

const vatLead = (country: string, number: string) => {
  const base = completeUkLead();
  return { ...base, country, business: { ...base.business, company_number: undefined, entity_type: null, vat: { number } } };
};


const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a run against registers answering like the live services", () => {
  it("ends with every lead's answer correct, no call before a reset and none after a complete answer", { timeout: 60_000 }, async () => {
    const standIn = liveStandIn();
    const overrides = standIn.env as Partial<Cloudflare.Env>;
    const { live } = await partnerWithKeys();
    const liquidation = await createLead(live.key, ukLead("07654321"));
    const trading = await createLead(live.key, ukLead("01234567"));
    const irish = await createLead(live.key, vatLead("IE", "IE6388047V"));
    const dutch = await createLead(live.key, vatLead("NL", "NL001234567B01"));
    const owners = [liquidation.id, trading.id, irish.id, dutch.id];
    const byKind = async (id: string, kind: "registry" | "vat") => (await dueMessages(id)).filter((m) => m.kind === kind);
    const messages: RegisterLookupMessage[] = [
      ...(await byKind(liquidation.id, "registry")),
      ...(await byKind(trading.id, "registry")),
      ...(await byKind(irish.id, "vat")),
      ...(await byKind(dutch.id, "vat")),
    ];
    expect(messages).toHaveLength(4);

    // Round 1: Companies House answers 429 (reset a few seconds on, no Retry-After); VIES throttles both numbers.
    const first = await consumeLookups([messages[0], messages[2], messages[3]], overrides);
    expect(first.retryMessages.map((m) => m.delaySeconds)).toEqual([60, 60, 60]);
    const limited = await standIn.requests();
    const [firstCall] = limited.filter((r) => r.service === "companies-house");
    expect(firstCall.answered).toBe(429);
    // The stand-in's window resets a couple of seconds after its first 429.
    const resetAt = firstCall.resetAt!;
    expect(resetAt).toBeGreaterThan(firstCall.at);
    expect((await lookupRows(liquidation.id))[0].answer).toEqual({ source: "official_register", status: "unavailable", reason: "rate_limited" });
    expect((await lookupRows(irish.id)).find((r) => r.kind === "vat")!.answer).toMatchObject({ valid: null, reason: "rate_limited", checked_at: null });

    // Before the reset: the second company's lookup is put back without a call (no attempt spent), and so is an early redelivery.
    const early = await consumeLookups([messages[1], messages[0]], overrides);
    expect(early.retryMessages).toHaveLength(2);
    expect(early.retryMessages[0].delaySeconds).toBeLessThanOrEqual(Math.ceil((resetAt - Date.now()) / 1000) + 1);
    expect((await lookupRows(trading.id)).find((r) => r.kind === "registry")).toMatchObject({ attempts: 0, answer: null });
    expect((await standIn.requests()).length).toBe(limited.length);

    // After the reset and the queue's delay: everything answers.
    await sleep(Math.max(0, resetAt - Date.now()) + 200);
    await delayPassed(...owners);
    const second = await consumeLookups(messages, overrides);
    expect(second.retryMessages).toEqual([]);
    const settled = await standIn.requests();

    // Complete answers: delivered again, nothing is asked.
    await consumeLookups(messages, overrides);
    expect((await standIn.requests()).length).toBe(settled.length);

    const read = async (id: string) => (await call("GET", `/partner/v1/leads/${id}`, { key: live.key })).body.business;
    const sinking = (await read(liquidation.id)).registry;
    expect(sinking).toMatchObject({ status: "available", registered_name: "SINKING SHIP LTD", company_status: "liquidation", has_insolvency_history: true, checked_at: expect.any(String) });
    expect(sinking.sections.insolvency).toMatchObject({ status: "available", data: { status: ["liquidation"] } });
    expect(sinking.directors).toEqual([expect.objectContaining({ name: "RECOVERY NOMINEES LIMITED", disqualified: null })]);
    expect((await read(trading.id)).registry).toMatchObject({ status: "available", registered_name: "HARBOUR LIGHT TRADING LIMITED", disqualified_directors_count: 1 });
    expect((await read(irish.id)).vat).toMatchObject({ number: "IE6388047V", valid: true, registered_name: "GOOGLE IRELAND LIMITED", checked_at: expect.any(String), reason: null });
    expect((await read(dutch.id)).vat).toMatchObject({ number: "NL001234567B01", valid: true, registered_name: "VOORBEELD HANDEL B.V." });
    for (const id of owners) expect((await lookupRows(id)).every((r) => r.due_at === null)).toBe(true);

    // The request log: one 429, no Companies House call before its reset, each VIES number asked twice, the service named every time.
    const ch = settled.filter((r) => r.service === "companies-house");
    expect(ch.filter((r) => r.answered === 429)).toHaveLength(1);
    expect(ch.slice(1).every((r) => r.at >= resetAt)).toBe(true);
    expect(ch.filter((r) => r.path === "/company/07654321")).toHaveLength(2);
    expect(ch.filter((r) => r.path === "/company/01234567")).toHaveLength(1);
    const viesCalls = settled.filter((r) => r.service === "vies").map((r) => r.path);
    expect(viesCalls.sort()).toEqual(["/ms/IE/vat/6388047V", "/ms/IE/vat/6388047V", "/ms/NL/vat/001234567B01", "/ms/NL/vat/001234567B01"]);
    expect(settled.every((r) => r.userAgent?.startsWith("referral-funding-service/"))).toBe(true);
  });
});
