import { describe, expect, it } from "vitest";
import { hmrcVat } from "../../src/registers/sources/hmrc-vat";
import { credentials, registerContext } from "./support/context";
import { vatFailureCases } from "./support/failures";

describe("HMRC VAT check adapter", () => {
  it("gets a client-credentials token, checks the number and carries the registered name and address", async () => {
    const { ctx, requests } = registerContext();
    const outcome = await hmrcVat.check("GB 553 5578 81", ctx);
    expect(outcome).toEqual({
      answer: {
        number: "GB553557881",
        valid: true,
        checked_at: "2026-11-23T12:00:00.000Z",
        source: "vat_validation",
        registered_name: "Credite Sberger Donal Inc.",
        registered_address: "131B Barton Hamlet, SW97 5CK, GB",
        reason: null,
      },
      retryable: false,
      retryAfterSeconds: null,
    });
    const [token, check] = await requests();
    expect(token).toMatchObject({ method: "POST", path: "/oauth/token" });
    expect(Object.fromEntries(new URLSearchParams(token.body))).toEqual({
      client_id: credentials.hmrcClientId,
      client_secret: credentials.hmrcClientSecret,
      grant_type: "client_credentials",
      scope: "read:vat",
    });
    expect(check).toMatchObject({
      path: "/organisations/vat/check-vat-number/lookup/553557881",
      accept: "application/vnd.hmrc.2.0+json",
      authorization: `Bearer ${credentials.hmrcIssuedToken}`,
    });
  });

  it("reuses the token for the next check", async () => {
    const { ctx, requests } = registerContext();
    await hmrcVat.check("553557881", ctx);
    await hmrcVat.check("GB999999973", ctx);
    expect((await requests()).filter((r) => r.path === "/oauth/token")).toHaveLength(1);
  });

  it("uses a configured bearer token instead of the client credentials", async () => {
    const { ctx, requests } = registerContext("ok", {
      env: { HMRC_CLIENT_ID: undefined, HMRC_CLIENT_SECRET: undefined, HMRC_VAT_BEARER_TOKEN: credentials.hmrcFixedToken },
    });
    expect((await hmrcVat.check("553557881", ctx)).answer.valid).toBe(true);
    const calls = await requests();
    expect(calls.map((c) => c.path)).toEqual(["/organisations/vat/check-vat-number/lookup/553557881"]);
    expect(calls[0].authorization).toBe(`Bearer ${credentials.hmrcFixedToken}`);
  });

  it("answers valid false for a number HMRC does not know (404 NOT_FOUND)", async () => {
    const { ctx } = registerContext();
    expect((await hmrcVat.check("GB999999973", ctx)).answer).toEqual({
      number: "GB999999973",
      valid: false,
      checked_at: "2026-11-23T12:00:00.000Z",
      source: "vat_validation",
      registered_name: null,
      registered_address: null,
      reason: null,
    });
  });

  it("answers valid false without a call for a number that is not 9 or 12 digits", async () => {
    const { ctx, requests } = registerContext();
    expect((await hmrcVat.check("GB12345", ctx)).answer).toMatchObject({ valid: false, reason: null });
    expect(await requests()).toEqual([]);
  });

  it("answers not_configured without calling anything when no credentials are set", async () => {
    const { ctx, requests } = registerContext("ok", { env: { HMRC_CLIENT_ID: undefined, HMRC_CLIENT_SECRET: undefined } });
    expect(await hmrcVat.check("GB553557881", ctx)).toEqual({
      answer: { number: "GB553557881", valid: null, checked_at: null, source: "vat_validation", registered_name: null, registered_address: null, reason: "not_configured" },
      retryable: false,
      retryAfterSeconds: null,
    });
    expect(await requests()).toEqual([]);
  });

  it("answers unavailable when the token request is refused (wrong client secret)", async () => {
    const { ctx, logs } = registerContext("ok", { env: { HMRC_CLIENT_SECRET: "wrong-secret" } });
    const outcome = await hmrcVat.check("GB553557881", ctx);
    expect(outcome.answer).toMatchObject({ valid: null, reason: "unavailable" });
    expect(outcome.retryable).toBe(false);
    expect(logs).toEqual([{ source: "hmrc_vat", operation: "oauth_token", outcome: "http_401", status: 401 }]);
  });

  describe("when the token request fails", () => {
    vatFailureCases((ctx) => hmrcVat.check("GB553557881", ctx), "GB553557881");
  });

  describe("when the check itself fails (a configured bearer token, so no token request)", () => {
    vatFailureCases((ctx) => hmrcVat.check("GB553557881", ctx), "GB553557881", {
      HMRC_CLIENT_ID: undefined,
      HMRC_CLIENT_SECRET: undefined,
      HMRC_VAT_BEARER_TOKEN: credentials.hmrcFixedToken,
    });

    it("answers unavailable when the check itself is refused with 401", async () => {
      const { ctx } = registerContext("ok", { env: { HMRC_CLIENT_ID: undefined, HMRC_CLIENT_SECRET: undefined, HMRC_VAT_BEARER_TOKEN: "revoked" } });
      expect((await hmrcVat.check("GB553557881", ctx)).answer).toMatchObject({ valid: null, reason: "unavailable" });
    });
  });
});
