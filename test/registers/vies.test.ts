import { describe, expect, it } from "vitest";
import { viesFor } from "../../src/registers/sources/vies";
import { registerContext } from "./support/context";
import { vatFailureCases } from "./support/failures";

const vies = (country: string) => viesFor(country)!;

describe("VIES adapter", () => {
  it("answers valid with the trader's name and address", async () => {
    const { ctx, requests } = registerContext();
    expect(await vies("IE").check("IE 6388047V", ctx)).toEqual({
      answer: {
        number: "IE6388047V",
        valid: true,
        checked_at: "2026-11-23T12:00:00.000Z",
        source: "vat_validation",
        registered_name: "GOOGLE IRELAND LIMITED",
        registered_address: "3RD FLOOR, GORDON HOUSE, BARROW STREET, DUBLIN 4",
        reason: null,
      },
      retryable: false,
      retryAfterSeconds: null,
    });
    expect((await requests()).map((r) => r.path)).toEqual(["/ms/IE/vat/6388047V"]);
  });

  it("joins a multi-line address and turns the undisclosed '---' into null", async () => {
    const { ctx } = registerContext();
    expect((await vies("NL").check("NL001234567B01", ctx)).answer).toMatchObject({ valid: true, registered_address: "KEIZERSGRACHT 00001, 1015CJ AMSTERDAM" });
    expect((await vies("ES").check("ESB12345674", ctx)).answer).toMatchObject({ valid: true, registered_name: null, registered_address: null });
  });

  it("answers valid false for a number VIES says is invalid", async () => {
    const { ctx } = registerContext();
    expect((await vies("BE").check("BE0999999999", ctx)).answer).toEqual({
      number: "BE0999999999",
      valid: false,
      checked_at: "2026-11-23T12:00:00.000Z",
      source: "vat_validation",
      registered_name: null,
      registered_address: null,
      reason: null,
    });
  });

  it("answers valid false without a call for a number in the wrong format for its country", async () => {
    const { ctx, requests } = registerContext();
    expect((await vies("DK").check("DK123", ctx)).answer).toMatchObject({ valid: false });
    expect(await requests()).toEqual([]);
  });

  it("treats a member state that is down as unanswered and retryable", async () => {
    const { ctx, logs } = registerContext();
    const outcome = await vies("DK").check("DK11111111", ctx);
    expect(outcome).toMatchObject({ answer: { valid: null, reason: "unavailable", checked_at: null }, retryable: true });
    expect(logs).toEqual([{ source: "vies", operation: "check_vat_number", outcome: "ms_unavailable", status: 200 }]);
  });

  it("treats the concurrent-request limit (an errorWrappers body) as rate limited and retryable", async () => {
    const { ctx } = registerContext();
    expect(await vies("SE").check("SE556000000001", ctx)).toMatchObject({ answer: { valid: null, reason: "rate_limited" }, retryable: true });
  });

  it("serves exactly the EU markets the market table checks", () => {
    for (const country of ["IE", "ES", "NL", "BE", "DK", "SE", "PL", "FR"]) expect(viesFor(country)).not.toBeNull();
    expect(viesFor("GB")).toBeNull();
  });

  vatFailureCases((ctx) => vies("IE").check("IE6388047V", ctx), "IE6388047V");
});
