import { describe, expect, it } from "vitest";
import { call } from "./helpers/api";
import { expectProblem } from "./helpers/seed";
import { firmOffer, routedLead } from "./lender/helpers";
import { partnerWithKeys } from "./helpers/seed";

// Decisions doc: `Idempotency-Key` on POST, on both APIs.
describe("Idempotency-Key on every POST", () => {
  it("replays a lender's offer instead of making a second one", async () => {
    const { keys, refA } = await routedLead();
    const send = (body: unknown) => call("POST", `/v1/deals/${refA}/offers`, { key: keys.a.live, body, headers: { "Idempotency-Key": "offer-1" } });
    const offer = firmOffer();
    const first = await send(offer);
    const again = await send(offer);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.body.id).toBe(first.body.id);
    const offers = await call("GET", `/v1/deals/${refA}/offers`, { key: keys.a.live });
    expect(offers.body.offers).toHaveLength(1);
    expectProblem(await send({ ...offer, amount: 12_345 }), 422, "idempotency_key_reused");
  });

  it("replays a webhook registration with the same endpoint, not a second one", async () => {
    const { live } = await partnerWithKeys();
    const body = { url: "https://hooks.example.com/rfs", events: ["lead.funded"] };
    const register = () => call("POST", "/partner/v1/webhooks", { key: live.key, body, headers: { "Idempotency-Key": "hook-1" } });
    const first = await register();
    const again = await register();
    expect(again.body.id).toBe(first.body.id);
    const list = await call("GET", "/partner/v1/webhooks", { key: live.key });
    expect(list.body.webhooks).toHaveLength(1);
  });
});
