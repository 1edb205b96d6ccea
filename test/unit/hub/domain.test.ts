import { describe, expect, it } from "vitest";
import { abaValid, accountSchemeOf, checkAccountDetails, ibanValid, maskedSummary } from "../../../src/domain/hub/account-details";
import { checkSignature, signerNameWordsOf, signatureVerification } from "../../../src/domain/hub/signature";
import { completionReachable } from "../../../src/domain/hub/to-do";
import { sha256Hex } from "../../../src/lib/crypto";

describe("account details", () => {
  it("picks the scheme by market", () => {
    expect(["GB", "US", "CA", "AU", "IE", "FR", "DE"].map(accountSchemeOf)).toEqual(["uk", "us", "ca", "au", "iban", "iban", "iban"]);
  });

  it("validates IBANs by their check digits and ABA routing numbers by checksum", () => {
    expect(ibanValid("IE29AIBK93115212345678")).toBe(true);
    expect(ibanValid("IE29AIBK93115212345679")).toBe(false);
    expect(ibanValid("GB82WEST12345698765432")).toBe(true);
    expect(ibanValid("XX")).toBe(false);
    expect(abaValid("021000021")).toBe(true);
    expect(abaValid("021000022")).toBe(false);
  });

  it("gives the masked summary every view shows, and the account in full for the sealed copy", () => {
    expect(checkAccountDetails("uk", { account_holder_name: " Acme  Ltd ", sort_code: "12-34-56", account_number: "1234 5678" })).toEqual({
      ok: true,
      summary: "Acme Ltd ••••5678",
      // The account in full, for the sealed copy only a lender admin opens (issue 45 item 6).
      full: [
        { label: "Account holder name", value: "Acme Ltd" },
        { label: "Sort code", value: "123456" },
        { label: "Account number", value: "12345678" },
      ],
    });
    expect(checkAccountDetails("iban", { account_holder_name: "Acme", iban: "ie29 aibk 9311 5212 3456 78" })).toMatchObject({ ok: true, summary: "Acme ••••5678", full: [{ label: "Account holder name", value: "Acme" }, { label: "IBAN", value: "IE29AIBK93115212345678" }] });
    expect(checkAccountDetails("us", { account_holder_name: "Acme", routing_number: "021000021", account_number: "000123456789" })).toMatchObject({ ok: true, summary: "Acme ••••6789" });
    expect(checkAccountDetails("ca", { account_holder_name: "Acme", transit_number: "12345", institution_number: "003", account_number: "1234567" })).toMatchObject({ ok: true });
    expect(checkAccountDetails("au", { account_holder_name: "Acme", bsb: "062-000", account_number: "12345678" })).toMatchObject({ ok: true });
    expect(maskedSummary("A", "12")).toBe("A ••••12");
  });

  // The domain says why; the hub turns `missing` into 400 and `invalid` into 422 (test/hub/hub.error.test.ts asserts those statuses).
  it("names the field it refuses: `missing` when it is empty, `invalid` when it is malformed", () => {
    expect(checkAccountDetails("uk", { sort_code: "123456", account_number: "12345678" })).toMatchObject({ ok: false, field: "account_holder_name", problem: "missing" });
    expect(checkAccountDetails("iban", { account_holder_name: "A", iban: "  " })).toMatchObject({ ok: false, field: "iban", problem: "missing" });
    expect(checkAccountDetails("us", { account_holder_name: "A", account_number: "1234" })).toMatchObject({ ok: false, field: "routing_number", problem: "missing" });
    expect(checkAccountDetails("iban", { account_holder_name: "A", iban: "IE29AIBK93115212345679" })).toMatchObject({ ok: false, field: "iban", problem: "invalid" });
    expect(checkAccountDetails("us", { account_holder_name: "A", routing_number: "123456789", account_number: "1234" })).toMatchObject({ ok: false, field: "routing_number", problem: "invalid" });
    expect(checkAccountDetails("uk", { account_holder_name: "x".repeat(141), sort_code: "123456", account_number: "12345678" })).toMatchObject({ ok: false, field: "account_holder_name", problem: "invalid" });
  });
});

describe("signature", () => {
  it("needs a name and consent", () => {
    expect(checkSignature({ full_name: " Ada  Lovelace ", consent: "yes" })).toEqual({ ok: true, name: "Ada Lovelace" });
    expect(checkSignature({ full_name: "Ada", consent: "on" })).toMatchObject({ ok: false, field: "consent" });
    expect(checkSignature({ consent: "yes" })).toMatchObject({ ok: false, field: "full_name" });
    // Every problem at once (issue 45 item 7): the name and the consent, in the form's order.
    const both = checkSignature({ full_name: " ", consent: "" }, "GB");
    expect(both.ok ? [] : both.problems.map((p) => p.field)).toEqual(["full_name", "consent"]);
    const account = checkAccountDetails("ca", { account_holder_name: "", transit_number: "1", institution_number: "003", account_number: "12" });
    expect(account.ok ? [] : account.problems.map((p) => [p.field, p.problem])).toEqual([["account_holder_name", "missing"], ["transit_number", "invalid"], ["account_number", "invalid"]]);
  });

  it("needs a first and a last name where the market's agreements name the signer so (every served market)", () => {
    expect(signerNameWordsOf("GB")).toBe(2);
    expect(signerNameWordsOf("ES")).toBe(2);
    expect(signerNameWordsOf("ZZ")).toBe(1);
    expect(checkSignature({ full_name: "Ada", consent: "yes" }, "GB")).toMatchObject({ ok: false, field: "full_name", problem: "invalid" });
    expect(checkSignature({ full_name: "Ada  Lovelace", consent: "yes" }, "GB")).toEqual({ ok: true, name: "Ada Lovelace" });
    expect(checkSignature({ full_name: "Ada", consent: "yes" }, "ZZ")).toMatchObject({ ok: true });
  });

  it("binds the typed name to the agreement's etag", async () => {
    expect(await signatureVerification("Ada  Lovelace", "etag1")).toBe(`typed_name:${await sha256Hex("Ada Lovelace\netag1")}`);
    expect(await signatureVerification("Ada Lovelace", "etag2")).not.toBe(await signatureVerification("Ada Lovelace", "etag1"));
  });
});

describe("the overview's Completion link", () => {
  const deal = (status: "submitted" | "offer_accepted" | "funded" | "declined") => ({ ref: "D1", status });
  it("leads to completion while the deal can reach it: no offer yet, an offer open or accepted", () => {
    expect(completionReachable(deal("submitted"), [])).toBe(true);
    expect(completionReachable(deal("submitted"), [{ dealRef: "D1", state: "presented" }, { dealRef: "D1", state: "declined" }])).toBe(true);
    expect(completionReachable(deal("offer_accepted"), [{ dealRef: "D1", state: "accepted" }])).toBe(true);
    // Another deal's declined offers say nothing of this one.
    expect(completionReachable(deal("submitted"), [{ dealRef: "D2", state: "declined" }])).toBe(true);
  });

  it("not once the provider declined the deal, nor once the business declined its every offer", () => {
    expect(completionReachable(deal("declined"), [])).toBe(false);
    expect(completionReachable(deal("submitted"), [{ dealRef: "D1", state: "declined" }, { dealRef: "D1", state: "declined" }])).toBe(false);
  });
});
