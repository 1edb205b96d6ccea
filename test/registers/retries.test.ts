import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LOOKUP_RETRY_DELAYS_SECONDS, nextLookupDelay } from "../../src/domain/registers/retry";
import type { RegisterQuery } from "../../src/domain/registers/types";
import { sourceContextFrom } from "../../src/registers/context";
import { unavailable } from "../../src/registers/outcome";
import { sandboxRegisterSource, sandboxVatSource } from "../../src/registers/sources/sandbox";
import type { RegisterSource } from "../../src/registers/source";
import { attemptLookup, type LookupSources } from "../../src/services/registers/attempts";
import { requeueOverdueLookups } from "../../src/services/registers/lookups";
import { call } from "../helpers/api";
import { partnerWithKeys } from "../helpers/seed";
import { createLead } from "../leads/helpers";
import { consumeLookups, delayPassed, dueMessages, lookupRows, recordingQueue, settle, settleOverdueLookups, ukLead } from "./lookups-support";
import { testDeps } from "../helpers/deps";
import { inData } from "../helpers/data-db";

const ctx = sourceContextFrom({});

/** Sources standing in for the outside world: `registry` answers as given, VAT from the sandbox. */
const sourcesWith = (registry: RegisterSource): LookupSources => ({ registry: () => registry, vat: (_e, country) => sandboxVatSource(country) });

describe("a register that does not answer", () => {
  it("stores the timeout answer at once and is asked again on the schedule, until the schedule is spent", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, ukLead("00000009", "GB100000009"));

    const first = await settle(lead.id);
    expect(first.retryMessages.map((m) => m.delaySeconds)).toEqual([LOOKUP_RETRY_DELAYS_SECONDS[0], LOOKUP_RETRY_DELAYS_SECONDS[0]]);
    const read = (await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key })).body;
    // A register that has not answered returns only {source, status, reason}: no checked_at.
    expect(read.business.registry).toEqual({ source: "official_register", status: "unavailable", reason: "timeout" });
    expect(read.business.vat).toMatchObject({ number: "GB100000009", valid: null, checked_at: null, reason: "unavailable", source: "vat_validation" });
    const rows = await lookupRows(lead.id);
    expect(rows.every((r) => r.attempts === 1 && r.due_at !== null)).toBe(true);

    // Each retry is the queue redelivering the same message.
    const messages = await dueMessages(lead.id);
    for (let attempt = 2; attempt <= LOOKUP_RETRY_DELAYS_SECONDS.length; attempt++) {
      await delayPassed(lead.id);
      const again = await consumeLookups(messages);
      expect(again.retryMessages.map((m) => m.delaySeconds)).toEqual([LOOKUP_RETRY_DELAYS_SECONDS[attempt - 1], LOOKUP_RETRY_DELAYS_SECONDS[attempt - 1]]);
    }
    await delayPassed(lead.id);
    const last = await consumeLookups(messages);
    expect(last.retryMessages).toEqual([]);
    expect(last.explicitAcks.length).toBe(2);
    expect((await lookupRows(lead.id)).map((r) => [r.attempts, r.due_at])).toEqual([
      [LOOKUP_RETRY_DELAYS_SECONDS.length + 1, null],
      [LOOKUP_RETRY_DELAYS_SECONDS.length + 1, null],
    ]);
    // A settled lookup's message, delivered again, asks nobody.
    expect((await consumeLookups(messages)).explicitAcks.length).toBe(2);
  });

  it("a lookup that outlives its budget counts as a timeout and is retried", async () => {
    const { live } = await partnerWithKeys();
    const lead = await createLead(live.key, ukLead("01010101"));
    const [message] = (await dueMessages(lead.id)).filter((m) => m.kind === "registry");
    const silent: RegisterSource = { source: "silent", lookup: () => new Promise(() => {}) };
    const decision = await attemptLookup(testDeps(), message, sourcesWith(silent), ctx, 20);
    expect(decision).toEqual({ action: "retry", delaySeconds: LOOKUP_RETRY_DELAYS_SECONDS[0] });
    expect((await lookupRows(lead.id))[0].answer).toMatchObject({ status: "unavailable", reason: "timeout" });
  });

  it("honours a source's Retry-After when it asks for longer than the schedule", async () => {
    const { live } = await partnerWithKeys();
    const lead = await createLead(live.key, ukLead("01010102"));
    const [message] = await dueMessages(lead.id);
    const limited: RegisterSource = { source: "limited", lookup: async () => unavailable("rate_limited", { retryable: true, retryAfterSeconds: 900 }) };
    expect(await attemptLookup(testDeps(), message, sourcesWith(limited), ctx)).toEqual({ action: "retry", delaySeconds: 900 });
    expect(nextLookupDelay(1, 5)).toBe(LOOKUP_RETRY_DELAYS_SECONDS[0]);
    expect(nextLookupDelay(LOOKUP_RETRY_DELAYS_SECONDS.length + 1)).toBeNull();
  });

  it("a failed retry keeps the facts an earlier attempt stored", async () => {
    const { live } = await partnerWithKeys();
    const lead = await createLead(live.key, ukLead("00000001"));
    const [message] = await dueMessages(lead.id);
    // The register answers, but asks to be asked again (a part of it failed).
    const partial: RegisterSource = {
      source: "partial",
      lookup: async (query: RegisterQuery, c) => ({ ...(await sandboxRegisterSource.lookup(query, c)), retryable: true }),
    };
    expect(await attemptLookup(testDeps(), message, sourcesWith(partial), ctx)).toMatchObject({ action: "retry" });
    await delayPassed(lead.id);
    const down: RegisterSource = { source: "down", lookup: async () => unavailable("unavailable", { retryable: true, retryAfterSeconds: null }) };
    expect(await attemptLookup(testDeps(), message, sourcesWith(down), ctx)).toMatchObject({ action: "retry" });
    const [row] = await lookupRows(lead.id);
    expect(row).toMatchObject({ attempts: 2, answer: { status: "available", registered_name: "SANDBOX TRADING LTD" } });
  });

  it("the cron re-sends a lookup whose message was lost, and not again before the grace period", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, ukLead("00000001"));
    // Other files' overdue lookups would come first in the sweep's 100.
    await settleOverdueLookups();
    await inData.prepare("update register_answers set due_at = ? where owner_id = ?").bind(new Date(Date.now() - 3_600_000).toISOString(), lead.id).run();
    const { queue, sent } = recordingQueue();
    await requeueOverdueLookups(testDeps({ env: { REGISTER_LOOKUPS: queue }, environment: "sandbox" }));
    expect(sent).toContainEqual((await dueMessages(lead.id))[0]);
    await requeueOverdueLookups(testDeps({ env: { REGISTER_LOOKUPS: queue }, environment: "sandbox" }));
    expect(sent.filter((m) => m.owner_id === lead.id)).toHaveLength(1);
  });

  it("puts back a message delivered before its row is due, without asking or spending an attempt", async () => {
    const { live } = await partnerWithKeys();
    const lead = await createLead(live.key, ukLead("01010103"));
    const [message] = await dueMessages(lead.id);
    let asked = 0;
    const down: RegisterSource = { source: "down", lookup: async () => (asked++, unavailable("unavailable", { retryable: true, retryAfterSeconds: null })) };
    expect(await attemptLookup(testDeps(), message, sourcesWith(down), ctx)).toEqual({ action: "retry", delaySeconds: LOOKUP_RETRY_DELAYS_SECONDS[0] });
    // The same message again at once (a duplicate, or the cron's re-send): not due for a minute.
    const early = await attemptLookup(testDeps(), message, sourcesWith(down), ctx);
    expect(early).toMatchObject({ action: "retry" });
    expect((early as { delaySeconds: number }).delaySeconds).toBeGreaterThan(50);
    expect(asked).toBe(1);
    expect((await lookupRows(lead.id))[0].attempts).toBe(1);
  });

  it("acknowledges a message that is not a lookup", async () => {
    const result = await consumeLookups([{ owner_id: 42, kind: "registry" } as never]);
    expect(result.explicitAcks.length).toBe(1);
  });
});
