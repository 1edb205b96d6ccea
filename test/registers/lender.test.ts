import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { monthsSince } from "../../src/domain/figures";
import { sourceContextFrom } from "../../src/registers/context";
import { sandboxRegisterSource, sandboxVatSource } from "../../src/registers/sources/sandbox";
import { attemptLookup } from "../../src/services/registers/attempts";
import { unavailable } from "../../src/registers/outcome";
import type { RegisterSource } from "../../src/registers/source";
import { call } from "../helpers/api";
import { lenderWithKeys, partnerWithKeys } from "../helpers/seed";
import { createLead } from "../leads/helpers";
import { twoLenderPanel } from "../routing/helpers";
import { consume, dispatch, receiverBucket, register, settleOutbox } from "../webhooks/support/webhooks";
import { dueMessages, ukLead } from "./lookups-support";
import { testDeps } from "../helpers/deps";
import { formatFor, LABELS } from "../../src/web/kit/format";
import { portal, signedInMember } from "../helpers/portal";
import { switchTo } from "../portal/partner/helpers";
import { inData } from "../helpers/data-db";

// Events other files of this worker left undispatched must not reach this file's dispatch.
beforeEach(settleOutbox);
// Each test routes a live lead for the one complete fixture company, 00000001: the earlier test's
// lead would otherwise hold it (docs/leads.md, "Attribution"), and storage is shared by the file.
beforeEach(async () => {
  await inData.prepare("update company_claims set active = 0 where company_key = 'GB:register:00000001'").run();
});

/** The fixture registers standing in for the real ones: a live lookup answered without leaving the machine. */
const fixtureRegisters = { registry: () => sandboxRegisterSource, vat: (_e: string, country: string) => sandboxVatSource(country) };

async function liveDealWithRegister() {
  const panel = await twoLenderPanel();
  const { live } = await partnerWithKeys();
  const lead = await createLead(live.key, ukLead("00000001", "GB100000001"));
  for (const message of await dueMessages(lead.id)) {
    await attemptLookup(testDeps(), message, fixtureRegisters, sourceContextFrom({}));
  }
  const submit = await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: live.key });
  expect(submit.body.state).toBe("matched");
  const { results } = await inData.prepare("select ref from deals where lead_id = ? and lender_organisation_id = ?").bind(lead.id, panel.a.id).all<any>();
  const partnerLead = (await call("GET", `/partner/v1/leads/${lead.id}`, { key: live.key })).body;
  return { panel, ref: results[0].ref as string, partnerLead };
}

describe("lenders see the register facts in the deal's market object", () => {
  it("GET /v1/deals/{ref}: the registry, its identifiers, the VAT check and the figures with their bases", async () => {
    const { panel, ref, partnerLead } = await liveDealWithRegister();
    const deal = (await call("GET", `/v1/deals/${ref}`, { key: panel.keys.a.live })).body;
    expect(deal.market.registry).toEqual(partnerLead.business.registry);
    expect(deal.market).toMatchObject({
      country: "UK",
      registry: { status: "available", company_status: "active", filed_financials: { turnover: 1_250_000 } },
      identifiers: { vat_number: "GB100000001", lei: null },
      vat: { number: "GB100000001", valid: true, registered_name: "Sandbox Trading Ltd" },
      annual_turnover: 1_250_000,
      annual_turnover_basis: "filed_accounts",
      tib_months: monthsSince("2019-03-14", new Date()),
      tib_months_basis: "register",
      time_in_business_band: "24m_60m",
    });
    expect(deal.market_block).toEqual(deal.market);
    expect(deal.annual_turnover).toBe(1_250_000);
  });

  it("full webhook payloads carry the same market object as the GET", async () => {
    const { panel, ref } = await liveDealWithRegister();
    const bucket = receiverBucket();
    await register("lender", panel.keys.a.live, { url: bucket.url(), events: ["deal.updated"] });
    expect((await call("POST", `/v1/deals/${ref}/status`, { key: panel.keys.a.live, body: { status: "in_review" } })).status).toBe(200);
    const { deliveryIds } = await dispatch();
    await consume(deliveryIds);
    const delivered = (await bucket.records()).map((r) => JSON.parse(r.body)).find((b) => b.event === "deal.updated");
    const deal = (await call("GET", `/v1/deals/${ref}`, { key: panel.keys.a.live })).body;
    const { update: _update, payload_mode: _mode, ...subject } = delivered.data;
    expect(subject).toEqual(deal);
    expect(subject.market.registry).toMatchObject({ status: "available", registered_name: "SANDBOX TRADING LTD" });
  });
});

describe("test deals carry the sandbox fixture 00000001", () => {
  it("a default test deal is company 00000001 with its complete register answer and a valid VAT number", async () => {
    const lender = await lenderWithKeys();
    const res = await call("POST", "/v1/test/deals", { key: lender.sandbox.key });
    expect(res.status).toBe(201);
    expect(res.body.business.company_number).toBe("00000001");
    expect(res.body.market).toMatchObject({
      registry: { source: "official_register", status: "available", registered_name: "SANDBOX TRADING LTD", incorporated_on: "2019-03-14", psc_count: 1, directors: [{}, {}] },
      identifiers: { vat_number: "GB100000001" },
      vat: { number: "GB100000001", valid: true, source: "vat_validation" },
      annual_turnover_basis: "filed_accounts",
      tib_months_basis: "register",
    });
    expect(Date.parse(res.body.market.registry.checked_at)).not.toBeNaN();
    const read = (await call("GET", `/v1/deals/${res.body.ref}`, { key: lender.sandbox.key })).body;
    expect(read.market).toEqual(res.body.market);
  });

  it("a shaped GB business without a number is 00000001 too; a shaped number gets its own fixture", async () => {
    const lender = await lenderWithKeys();
    const unnamed = await call("POST", "/v1/test/deals", { key: lender.sandbox.key, body: { business: { name: "Shaped Ltd" } } });
    expect(unnamed.status).toBe(201);
    expect(unnamed.body.market.registry).toMatchObject({ status: "available", company_status: "active" });
    const dissolved = await call("POST", "/v1/test/deals", { key: lender.live.key, body: { business: { name: "Gone Ltd", company_number: "00000002" } } });
    expect(dissolved.status).toBe(201);
    expect(dissolved.body.market.registry).toMatchObject({ status: "available", company_status: "dissolved" });
  });

  it("a test deal in another market carries that market's fixture", async () => {
    const lender = await lenderWithKeys();
    const fr = await call("POST", "/v1/test/deals", { key: lender.sandbox.key, body: { country: "FR" } });
    expect(fr.status).toBe(201);
    expect(fr.body.market).toMatchObject({ country: "FR", company_number: "100000001", registry: { status: "available" }, identifiers: { siren: "100000001", siret: "10000000100011" } });
    const us = await call("POST", "/v1/test/deals", { key: lender.sandbox.key, body: { country: "US" } });
    expect(us.body.market.registry).toMatchObject({ status: "unavailable", reason: "not_available_in_state" });
  });
});

/** The one key set a register answer with a `reason` may have (the spec's "returns only"; decisions.md). */
const UNANSWERED_KEYS = ["reason", "source", "status"];
const keysOf = (o: unknown) => Object.keys(o as object).sort();

describe("a register object with a reason is exactly {source, status, reason}", () => {
  it.each(["not_found", "timeout", "unavailable", "rate_limited", "not_configured", "not_available_in_state"] as const)(
    "%s: stored and on the partner's lead with no checked_at",
    async (reason) => {
      const { live } = await partnerWithKeys();
      const lead = await createLead(live.key, ukLead("01020304"));
      const [message] = (await dueMessages(lead.id)).filter((m) => m.kind === "registry");
      const answering: RegisterSource = { source: "stand-in", lookup: async () => unavailable(reason) };
      await attemptLookup(testDeps(), message, { registry: () => answering, vat: fixtureRegisters.vat }, sourceContextFrom({}));
      const row = await inData.prepare("select answer from register_answers where owner_id = ? and kind = 'registry'").bind(lead.id).first<{ answer: string }>();
      expect(keysOf(JSON.parse(row!.answer))).toEqual(UNANSWERED_KEYS);
      const read = (await call("GET", `/partner/v1/leads/${lead.id}`, { key: live.key })).body;
      expect(read.business.registry).toEqual({ source: "official_register", status: "unavailable", reason });
      expect(keysOf(read.business.registry)).toEqual(UNANSWERED_KEYS);
      // A row stored before the rule (with checked_at in the object) reads the same.
      await inData.prepare("update register_answers set answer = ? where owner_id = ? and kind = 'registry'")
        .bind(JSON.stringify({ source: "official_register", status: "unavailable", reason, checked_at: "2026-11-01T10:00:00.000Z" }), lead.id)
        .run();
      expect(keysOf((await call("GET", `/partner/v1/leads/${lead.id}`, { key: live.key })).body.business.registry)).toEqual(UNANSWERED_KEYS);
    },
  );

  it("not_found from the register: the partner's lead, the lender's deal and both webhook bodies carry the three keys", async () => {
    const panel = await twoLenderPanel();
    const { live } = await partnerWithKeys();
    const partnerReceiver = receiverBucket();
    await register("partner", live.key, { url: partnerReceiver.url(), events: ["lead.submitted"] });
    // The sandbox fixtures know no 99999999: the register's own "no such company".
    const lead = await createLead(live.key, ukLead("99999999"));
    for (const message of await dueMessages(lead.id)) await attemptLookup(testDeps(), message, fixtureRegisters, sourceContextFrom({}));
    expect((await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: live.key })).body.state).toBe("matched");
    const { results } = await inData.prepare("select ref from deals where lead_id = ? and lender_organisation_id = ?").bind(lead.id, panel.a.id).all<any>();
    const ref = results[0].ref as string;
    const lenderReceiver = receiverBucket();
    await register("lender", panel.keys.a.live, { url: lenderReceiver.url(), events: ["deal.updated"] });
    expect((await call("POST", `/v1/deals/${ref}/status`, { key: panel.keys.a.live, body: { status: "in_review" } })).status).toBe(200);
    const { deliveryIds } = await dispatch();
    await consume(deliveryIds);

    const notFound = { source: "official_register", status: "unavailable", reason: "not_found" };
    const partnerLead = (await call("GET", `/partner/v1/leads/${lead.id}`, { key: live.key })).body;
    const deal = (await call("GET", `/v1/deals/${ref}`, { key: panel.keys.a.live })).body;
    const lenderBody = (await lenderReceiver.records()).map((r) => JSON.parse(r.body)).find((b) => b.event === "deal.updated");
    const partnerBody = (await partnerReceiver.records()).map((r) => JSON.parse(r.body)).find((b) => b.event === "lead.submitted");
    for (const registry of [partnerLead.business.registry, deal.market.registry, lenderBody.data.market.registry, partnerBody.data.business.registry]) {
      expect(registry).toEqual(notFound);
      expect(keysOf(registry)).toEqual(UNANSWERED_KEYS);
    }
  });
});

describe("when the register was last asked is for people, not a key", () => {
  it("the portal's register section says when a register that does not know the number was asked; the API object has no checked_at", async () => {
    const { organisation, live } = await partnerWithKeys();
    const lead = await createLead(live.key, ukLead("99999999"));
    for (const message of await dueMessages(lead.id)) await attemptLookup(testDeps(), message, fixtureRegisters, sourceContextFrom({}));
    const row = await inData.prepare("select checked_at from register_answers where owner_id = ? and kind = 'registry'").bind(lead.id).first<{ checked_at: string }>();
    expect(row!.checked_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const session = await signedInMember(organisation.id, "member");
    await switchTo(session, "live");
    const page = await portal("GET", `/leads/${lead.id}`, { session });
    expect(page.status).toBe(200);
    // In the member's zone (none set: UTC), named, as every portal time.
    const paragraph = page.text.match(/<p id="register-reason">([^<]*)<\/p>/)![1];
    expect(paragraph).toBe(`The company register could not answer: ${LABELS.registerReason("not_found")} (last asked ${formatFor(lead.country, "UTC").time(row!.checked_at)}).`);
  });
});
