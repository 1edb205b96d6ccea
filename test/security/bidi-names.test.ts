// Issue 21 item 11: names refuse Unicode bidi controls and other control characters (400 `invalid_request`
// naming the field); pages isolate user-supplied names (<bdi> / dir="auto").
import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { partnerWithKeys } from "../helpers/seed";
import { completeUkLead, person } from "../leads/helpers";
import { hasForbiddenTextCharacter } from "../../src/lib/unicode";
import { firmOffer, makeOffer, routedLead } from "../lender/helpers";
import { hubCall, hubLead } from "../hub/helpers";
import { portal, signedInMember } from "../helpers/portal";
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
    for (const bad of TRAPS) expect(hasForbiddenTextCharacter(`a${bad}b`), `U+${bad.codePointAt(0)!.toString(16)}`).toBe(true);
    for (const good of ["Grace Hopper", "Zoë O'Brien-Łukasz", "שלום Ltd", "株式会社テスト", "José & Sons (UK) Ltd"]) expect(hasForbiddenTextCharacter(good)).toBe(false);
    expect(checkSignature({ full_name: "Grace\u202EHopper", consent: "yes" })).toMatchObject({ ok: false, field: "full_name", problem: "invalid" });
    expect(checkAccountDetails("uk", { account_holder_name: "Acme\u2066Ltd", sort_code: "12-34-56", account_number: "12345678" })).toMatchObject({
      ok: false,
      field: "account_holder_name",
      problem: "invalid",
    });
  });
});

// Issue 39 item 8: the rule covers every free-text field (messages, notes, reasons, partner_reference,
// addresses), refuses every invisible format character (all of \p{Cf}, and U+034F) as well, and every
// page isolates what a person typed.
const INVISIBLE = ["\u200B", "\u00AD", "\uFEFF", "\u034F", "\u180E", "\u2060", "\u200D", "\u202E", "\u2067", "\u061C"];

describe("issue 39 item 8: one text rule for every free-text field, and user text isolated on every page", () => {
  it("refuses invisible format characters in names and one-line text, and bidi controls in multi-line text that keeps its line breaks", () => {
    for (const bad of INVISIBLE) {
      const code = `U+${bad.codePointAt(0)!.toString(16)}`;
      expect(hasForbiddenTextCharacter(`Acme${bad}Ltd`), code).toBe(true);
      expect(hasForbiddenTextCharacter(`First line\n${bad}second`, { lines: true }), code).toBe(true);
    }
    expect(hasForbiddenTextCharacter("Line one\nLine two", { lines: true })).toBe(false);
    expect(hasForbiddenTextCharacter("Line one\r\n\tindented", { lines: true })).toBe(false);
    expect(hasForbiddenTextCharacter("Line one\nLine two")).toBe(true);
    for (const bad of ["\u0000", "\u0007", "\u0085", "\u2028", "\u2029"]) expect(hasForbiddenTextCharacter(`a${bad}b`, { lines: true })).toBe(true);
    for (const good of ["مرحبا بالعالم", "שלום, please send Q3 — £4,000 (approx.)", "Zoë’s café ☕ 😀"]) expect(hasForbiddenTextCharacter(good, { lines: true })).toBe(false);
  });

  it("refuses them in partner_reference, addresses and names (lead), and in messages, offer notes, request notes and reasons (lender), naming the field", async () => {
    const { keys, refA, partner } = await routedLead();
    const lead = completeUkLead();
    const leadCases: [string, unknown][] = [
      ["partner_reference", { ...lead, partner_reference: "INV-\u202E2024" }],
      ["business.name", { ...lead, business: { ...lead.business, name: "Acme\u200BLtd" } }],
      ["contact.first_name", { ...lead, contact: { ...lead.contact, first_name: "Gr\u00ADace" } }],
      ["business.company_number", { ...lead, business: { ...lead.business, company_number: "0123\uFEFF4567" } }],
    ];
    for (const [field, body] of leadCases) {
      const res = await call("POST", "/partner/v1/leads", { key: partner.live.key, body });
      expect(res.status, field).toBe(400);
      expect(res.body.error).toMatchObject({ code: "invalid_request", field });
    }
    const lenderCases: [string, string, unknown][] = [
      ["messages", "body", { body: "Please send\nthe \u202Efdp.exe statement" }],
      ["offers", "notes", { ...firmOffer(), notes: "Subject to \u2067checks" }],
      ["requests", "note", { item_type: "vat_returns", note: "Last four\u200B quarters" }],
      ["status", "reason", { status: "declined", reason: "Outside \u202Eappetite" }],
    ];
    for (const [action, field, body] of lenderCases) {
      const res = await call("POST", `/v1/deals/${refA}/${action}`, { key: keys.a.live, body });
      expect(res.status, `${action} ${field}`).toBe(400);
      expect(res.body.error).toMatchObject({ code: "invalid_request", field });
    }
    // Line breaks in multi-line text are kept.
    const message = await call("POST", `/v1/deals/${refA}/messages`, { key: keys.a.live, body: { body: "Please send\nthe statements" } });
    expect(message.status).toBe(201);
    expect(message.body.message.body).toBe("Please send\nthe statements");
  });

  it("refuses them in the client's reply from the hub, beside the field", async () => {
    const { hub, refA } = await hubLead();
    const res = await hubCall("POST", `${hub}/deals/${refA}/messages`, { form: { subject: "Statements", body: "Here \u202Eyou go" } });
    expect(res.status).toBe(400);
    expect(res.text).toContain('data-field="body"');
    expect(res.text).toContain("text-direction character");
  });

  it("isolates what people typed (<bdi> or dir=\"auto\") on the partner's lead page, the lender's deal page and the hub", async () => {
    const lead = completeUkLead();
    const typed = {
      reference: "\u05D0REFX\u05D1",
      business: "\u05D2BIZX\u05D3",
      first: "\u05D4FIRSTX\u05D5",
      person: "\u05D6PERSONX\u05D7",
      message: "\u05D8MSGX\u05D9",
      notes: "\u05DANOTESX\u05DB",
      note: "\u05DCNOTEX\u05DD",
    };
    const { hub, refA, keys, partner, lead: created, a } = await hubLead({
      ...lead,
      partner_reference: typed.reference,
      business: { ...lead.business, name: typed.business },
      contact: { ...lead.contact, first_name: typed.first },
      significant_persons: [{ ...person(), full_name: typed.person }],
    });
    expect((await call("POST", `/v1/deals/${refA}/messages`, { key: keys.a.live, body: { body: typed.message } })).status).toBe(201);
    await makeOffer(keys.a.live, refA, firmOffer({ notes: typed.notes }));
    const request = await call("POST", `/v1/deals/${refA}/requests`, { key: keys.a.live, body: { item_type: "vat_returns", note: typed.note } });
    expect(request.status).toBe(200);

    const partnerSession = await signedInMember(partner.organisation.id, "member");
    await portal("POST", "/environment", { session: partnerSession, form: { environment: "live" } });
    const lenderSession = await signedInMember(a.id, "member");
    await portal("POST", "/environment", { session: lenderSession, form: { environment: "live" } });
    const pages: [string, string][] = [
      ["partner lead page", (await portal("GET", `/leads/${created.id}`, { session: partnerSession })).text],
      ["partner persons page", (await portal("GET", `/leads/${created.id}/persons`, { session: partnerSession })).text],
      ["partner leads list", (await portal("GET", "/leads", { session: partnerSession })).text],
      ["lender deal page", (await portal("GET", `/deals/${refA}`, { session: lenderSession })).text],
      ["hub overview", (await hubCall("GET", hub)).text],
      ["hub request page", (await hubCall("GET", `${hub}/requests/${request.body.request.id}`)).text],
      ["hub messages page", (await hubCall("GET", `${hub}/deals/${refA}/messages`)).text],
    ];
    const bare: string[] = [];
    for (const [page, html] of pages) {
      for (const [what, value] of Object.entries(typed)) for (const context of unisolated(html, value)) bare.push(`${page}: ${what} in ${context}`);
    }
    expect(bare).toEqual([]);
    // The test reads what it means to: the values do appear on the pages.
    expect(pages.find(([p]) => p === "hub request page")![1]).toContain(typed.note);
    expect(pages.find(([p]) => p === "lender deal page")![1]).toContain(typed.message);
  });
});

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
const NOT_SHOWN_AS_TEXT = new Set(["title", "textarea", "option", "script", "style"]);

/** Each text-node occurrence of `value` whose innermost element is neither <bdi> nor dir="auto", as "<tag attrs>". */
function unisolated(html: string, value: string): string[] {
  const found: string[] = [];
  for (let at = html.indexOf(value); at !== -1; at = html.indexOf(value, at + 1)) {
    const before = html.slice(0, at);
    if (before.lastIndexOf("<") > before.lastIndexOf(">")) continue; // inside a tag: an attribute value
    const stack: { name: string; tag: string }[] = [];
    for (const m of before.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>/g)) {
      const name = m[2].toLowerCase();
      if (m[1]) {
        const open = stack.map((s) => s.name).lastIndexOf(name);
        if (open !== -1) stack.length = open;
      } else if (!VOID.has(name) && !m[3].endsWith("/")) stack.push({ name, tag: m[0] });
    }
    const inner = stack.at(-1);
    if (!inner || NOT_SHOWN_AS_TEXT.has(inner.name)) continue;
    if (inner.name !== "bdi" && !/\bdir="auto"/.test(inner.tag)) found.push(inner.tag);
  }
  return found;
}
