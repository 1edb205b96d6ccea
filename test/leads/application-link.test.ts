// Issue 44: the application link and consent the service can prove. The partner API's side (the
// consent texts, the receipt, the link's life) and the pages behind the link (token traded for a
// session, steps saved through the API's own schemas and services, locked fields, agreement,
// withdrawal), with the links that must all look the same: guessed, used, expired, revoked, tampered,
// and a sandbox link on the production host.
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, newClientAddress, PRODUCTION, SANDBOX, throughEdge } from "../helpers/api";
import { expectProblem, partnerWithKeys } from "../helpers/seed";
import { completeUkLead, createLead, freshCompanyNumber } from "./helpers";
import { CONSENT_TEXTS } from "../../src/domain/leads/consent-texts";

const eventsOf = async (leadId: string) =>
  (await env.DB.prepare("select event, detail from events where subject_id = ? order by created_at, rowid").bind(leadId).all<{ event: string; detail: string }>()).results.map((r) => ({
    event: r.event,
    detail: JSON.parse(r.detail),
  }));

describe("consent texts and the receipt", () => {
  it("serves each published version with every market locale's text and its sha256; an unknown version is 404", async () => {
    const { live } = await partnerWithKeys();
    const [first] = CONSENT_TEXTS;
    const res = await call("GET", `/partner/v1/consent-texts/${first!.version}`, { key: live.key });
    expect(res.status).toBe(200);
    expect(res.body.texts.map((t: { locale: string }) => t.locale).sort()).toEqual(["da-DK", "en-AU", "en-CA", "en-GB", "en-IE", "en-US", "es-ES", "fr-FR", "nl-BE", "nl-NL", "pl-PL", "sv-SE"]);
    for (const t of res.body.texts) {
      const digest = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(t.text))), (b) => b.toString(16).padStart(2, "0")).join("");
      expect(digest, t.locale).toBe(t.sha256);
    }
    expectProblem(await call("GET", "/partner/v1/consent-texts/1999-01", { key: live.key }), 404, "not_found");
  });

  it("writes a partner_api receipt for a declared published version, kept through unrelated changes, and fires lead.consent_captured once", async () => {
    const { live } = await partnerWithKeys();
    const version = CONSENT_TEXTS.at(-1)!.version;
    const lead = await createLead(live.key, { ...completeUkLead(), consent: { obtained: true, obtained_at: "2026-11-01T10:00:00Z", soft_credit_search: true, text_version: version } });
    const en = CONSENT_TEXTS.at(-1)!.texts.find((t) => t.locale === "en-GB")!;
    expect(lead.consent.receipt).toEqual({ text_version: version, text_sha256: en.sha256, locale: "en-GB", agreed_at: "2026-11-01T10:00:00Z", channel: "partner_api", soft_credit_search: true, disclosure_version: null });
    // An unrelated change keeps the receipt and fires nothing more.
    const patched = await call("PATCH", `/partner/v1/leads/${lead.id}`, { key: live.key, body: { business: { name: "Widgets Two Ltd" } } });
    expect(patched.body.consent.receipt).toEqual(lead.consent.receipt);
    expect((await eventsOf(lead.id)).filter((e) => e.event === "lead.consent_captured")).toHaveLength(1);
    // Without a text version there is nothing to prove: no receipt, as before issue 44.
    const bare = await createLead(live.key);
    expect(bare.consent).toMatchObject({ obtained: true, receipt: null, text_version: null });
  });

  it("refuses a text version that is not published (422 unknown_code on consent.text_version), on create and on PATCH", async () => {
    const { live } = await partnerWithKeys();
    const created = await call("POST", "/partner/v1/leads", { key: live.key, body: { ...completeUkLead(), consent: { obtained: true, text_version: "2000-01" } } });
    expectProblem(created, 422, "unknown_code");
    expect(created.body.error.field).toBe("consent.text_version");
    const lead = await createLead(live.key);
    const patched = await call("PATCH", `/partner/v1/leads/${lead.id}`, { key: live.key, body: { consent: { text_version: "nope" } } });
    expectProblem(patched, 422, "unknown_code");
  });
});
