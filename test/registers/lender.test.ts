import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { monthsSince } from "../../src/domain/figures";
import { sourceContextFrom } from "../../src/registers/context";
import { sandboxRegisterSource, sandboxVatSource } from "../../src/registers/sources/sandbox";
import { attemptLookup } from "../../src/services/registers/attempts";
import { call } from "../helpers/api";
import { lenderWithKeys, partnerWithKeys } from "../helpers/seed";
import { createLead } from "../leads/helpers";
import { twoLenderPanel } from "../routing/helpers";
import { consume, dispatch, receiverBucket, register, settleOutbox } from "../webhooks/support/webhooks";
import { dueMessages, ukLead } from "./lookups-support";
import { testDeps } from "../helpers/deps";

// Events other files of this worker left undispatched must not reach this file's dispatch.
beforeEach(settleOutbox);

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
  const { results } = await env.DB.prepare("select ref from deals where lead_id = ? and lender_organisation_id = ?").bind(lead.id, panel.a.id).all<any>();
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
