/**
 * Issue 21 item 16: under load every 503 the service gives is application/problem+json with
 * Retry-After. The platform's "too busy" failures (an overloaded Durable Object or D1) are answered
 * 503 `service_unavailable`, not a bare 500; the other 503s (the limiter unreachable, a
 * misconfigured deployment) carry Retry-After too. The black-box run's text/plain 503s are the
 * runtime's own (docs/operations.md, "Security").
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ADMIN_TOKEN } from "../helpers/api";
import { callWithEnv, faultyEnv } from "../helpers/faults";
import { createOrganisation, partnerWithKeys } from "../helpers/seed";
import { firmOffer, makeOffer, routedLead } from "../lender/helpers";

/** What D1 throws when its object is too busy: the platform's message, with `overloaded` set. */
const overloaded = () => Object.assign(new Error("D1_ERROR: D1 DB is overloaded. Too many requests queued."), { overloaded: true, retryable: true });

function expectBusy(res: { status: number; headers: Headers; body: any }) {
  expect(res.status).toBe(503);
  expect(res.headers.get("Content-Type")).toBe("application/problem+json");
  expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
  expect(res.body.error.code).toBe("service_unavailable");
}

describe("issue 21 item 16: 503s under load", () => {
  beforeEach(() => {
    vi.spyOn(console, "error").mockImplementation(() => {});
  });

  it("item 16: an operator key creation meeting an overloaded D1 is 503 problem+json with Retry-After", async () => {
    const org = await createOrganisation("partner");
    const { env } = faultyEnv({ d1: "every", error: overloaded });
    const res = await callWithEnv(env, "POST", `/admin/v1/organisations/${org.id}/keys`, {
      body: { environment: "sandbox", type: "secret" },
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expectBusy(res);
  });

  it("item 16: an offer acceptance meeting an overloaded D1 is 503 problem+json with Retry-After", async () => {
    const routed = await routedLead();
    const offer = await makeOffer(routed.keys.a.live, routed.refA, firmOffer());
    const { env } = faultyEnv({ d1: "every", error: overloaded });
    const res = await callWithEnv(env, "POST", `/partner/v1/leads/${routed.lead.id}/offers/${offer.id}/acceptance`, { key: routed.partner.live.key });
    expectBusy(res);
  });

  it("item 16: an overloaded key object (the limiter) is 503 problem+json with Retry-After", async () => {
    const { live } = await partnerWithKeys();
    const { env } = faultyEnv({ durableObject: "every", error: overloaded });
    expectBusy(await callWithEnv(env, "GET", "/partner/v1/me", { key: live.key }));
  });
});
