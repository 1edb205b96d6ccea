// Issue 21 item 11: names refuse Unicode bidi controls and other control characters (400 `invalid_request`
// naming the field); pages isolate user-supplied names (<bdi> / dir="auto").
import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { partnerWithKeys } from "../helpers/seed";
import { completeUkLead } from "../leads/helpers";
import { hasForbiddenNameCharacter } from "../../src/lib/unicode";
import { checkSignature } from "../../src/domain/hub/signature";
import { checkAccountDetails } from "../../src/domain/hub/account-details";

const TRAPS = ["\u202E", "\u202A", "\u202D", "\u2066", "\u2067", "\u2069", "\u200E", "\u200F", "\u0000", "\u0007", "\t", "\n", "\u0085"];

describe("issue 21 item 11: bidi and control characters in names", () => {
  it("refuses each trap character in every name of a lead, with 400 invalid_request naming the field, and stores nothing", async () => {
    const partner = await partnerWithKeys();
    const lead = completeUkLead();
    const cases: [string, (bad: string) => unknown][] = [
      ["business.name", (bad) => ({ ...lead, business: { ...lead.business, name: `Acme${bad}gnp.exe Ltd` } })],
      ["contact.first_name", (bad) => ({ ...lead, contact: { ...lead.contact, first_name: `Gr${bad}ace` } })],
      ["contact.last_name", (bad) => ({ ...lead, contact: { ...lead.contact, last_name: `Hop${bad}per` } })],
      ["channel.name", (bad) => ({ ...lead, channel: { name: `Shop${bad}front` } })],
    ];
    for (const [field, body] of cases) {
      for (const bad of ["\u202E", "\u2066", "\u0007"]) {
        const res = await call("POST", "/partner/v1/leads", { key: partner.live.key, body: body(bad) });
        expect(res.status, `${field} with U+${bad.codePointAt(0)!.toString(16)}`).toBe(400);
        expect(res.body.error.code).toBe("invalid_request");
        expect(res.body.error.field).toBe(field);
      }
    }
    const list = await call("GET", "/partner/v1/leads", { key: partner.live.key });
    expect(list.body.leads).toHaveLength(0);
  });

  it("refuses them on PATCH and in a significant person's name", async () => {
    const partner = await partnerWithKeys();
    const created = await call("POST", "/partner/v1/leads", { key: partner.live.key, body: { country: "GB" } });
    expect(created.status).toBe(201);
    const patch = await call("PATCH", `/partner/v1/leads/${created.body.id}`, { key: partner.live.key, body: { business: { name: "Evil\u202Ecod.exe" } } });
    expect(patch.status).toBe(400);
    expect(patch.body.error.code).toBe("invalid_request");
    expect(patch.body.error.field).toBe("business.name");
    // A plain name, right-to-left scripts included, is accepted.
    const fine = await call("PATCH", `/partner/v1/leads/${created.body.id}`, { key: partner.live.key, body: { business: { name: "شركة الأمل Ltd" } } });
    expect(fine.status).toBe(200);
  });

  it("is one rule: every trap is refused, plain names of any script pass, and the hub's signature and account-holder names use it", () => {
    for (const bad of TRAPS) expect(hasForbiddenNameCharacter(`a${bad}b`), `U+${bad.codePointAt(0)!.toString(16)}`).toBe(true);
    for (const good of ["Grace Hopper", "Zoë O'Brien-Łukasz", "שלום Ltd", "株式会社テスト", "José & Sons (UK) Ltd"]) expect(hasForbiddenNameCharacter(good)).toBe(false);
    expect(checkSignature({ full_name: "Grace\u202EHopper", consent: "yes" })).toMatchObject({ ok: false, field: "full_name", problem: "invalid" });
    expect(checkAccountDetails("uk", { account_holder_name: "Acme\u2066Ltd", sort_code: "12-34-56", account_number: "12345678" })).toMatchObject({
      ok: false,
      field: "account_holder_name",
      problem: "invalid",
    });
  });
});
