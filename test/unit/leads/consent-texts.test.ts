// Issue 44: a published consent text is never edited, since receipts name it by its hash. Each
// stored sha256 is recomputed from its text here: an edited text fails this instead of silently
// breaking every receipt that names it (a new wording is a new version).
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { COMMISSION_DISCLOSURES, CONSENT_TEXTS, consentTextIn, publishedTextVersion } from "../../../src/domain/leads/consent-texts";
import { consentAfterWrite, consentByBusiness, consentView, consentWithdrawn, withdrawnConsent } from "../../../src/domain/leads/consent";
import { MARKETS } from "../../../src/domain/reference/markets";

describe("the consent texts table", () => {
  it("holds, for every version, each market locale's text with the sha256 of exactly that text", () => {
    for (const version of CONSENT_TEXTS) {
      expect(version.texts.map((t) => t.locale).sort()).toEqual([...new Set(MARKETS.map((m) => m.locale))].sort());
      for (const t of version.texts) expect(createHash("sha256").update(t.text, "utf8").digest("hex"), `${version.version} ${t.locale}`).toBe(t.sha256);
    }
  });

  it("holds, for every commission disclosure version, each market locale's text with its sha256; ids never collide with the consent texts'", () => {
    for (const version of COMMISSION_DISCLOSURES) {
      expect(version.texts.map((t) => t.locale).sort()).toEqual([...new Set(MARKETS.map((m) => m.locale))].sort());
      for (const t of version.texts) {
        expect(createHash("sha256").update(t.text, "utf8").digest("hex"), `${version.version} ${t.locale}`).toBe(t.sha256);
        expect(t.text, `${version.version} ${t.locale} names the introducer`).toContain("{name}");
      }
      expect(publishedTextVersion(version.version)?.kind).toBe("commission_disclosure");
    }
    for (const version of CONSENT_TEXTS) expect(publishedTextVersion(version.version)?.kind).toBe("consent_text");
  });

  it("falls back to en-GB for a locale a version lacks", () => {
    expect(consentTextIn(CONSENT_TEXTS[0]!, "xx-XX").locale).toBe("en-GB");
  });
});

describe("the receipt a partner's write makes", () => {
  const at = "2026-11-29T10:00:00.000Z";
  const version = CONSENT_TEXTS.at(-1)!.version;

  it("needs obtained and a text version; keeps the held receipt while what it proves is unchanged; a changed soft search is a new one", () => {
    expect(consentAfterWrite(null, { obtained: true }, "partner_api", "en-GB", at)).toEqual({ consent: { obtained: true, receipt: null }, captured: false });
    const first = consentAfterWrite(null, { obtained: true, text_version: version }, "portal", "fr-FR", at);
    expect(first.captured).toBe(true);
    expect(first.consent?.receipt).toMatchObject({ channel: "portal", locale: "fr-FR", agreed_at: at, soft_credit_search: false, disclosure_version: null, disclosure_locale: null, disclosure_sha256: null });
    expect(consentAfterWrite(first.consent, { ...first.consent }, "portal", "fr-FR", "2026-11-30T00:00:00Z").captured).toBe(false);
    expect(consentAfterWrite(first.consent, { ...first.consent, soft_credit_search: true }, "portal", "fr-FR", at).captured).toBe(true);
  });

  it("keeps a withdrawn receipt as the record, and a withdrawn lead cannot be submitted until consent is given again", () => {
    const given = consentAfterWrite(null, { obtained: true, text_version: version }, "partner_api", "en-GB", at).consent;
    const withdrawn = withdrawnConsent(given, at);
    expect(consentWithdrawn(withdrawn)).toBe(true);
    expect(consentAfterWrite(withdrawn, { ...withdrawn, soft_credit_search: false }, "partner_api", "en-GB", at).consent?.receipt).toEqual(given?.receipt);
    const again = consentAfterWrite(withdrawn, { ...withdrawn, obtained: true }, "partner_api", "en-GB", at);
    expect(again.captured).toBe(true);
    expect(consentWithdrawn(again.consent)).toBe(false);
  });
});

describe("the receipt of the business's own agreement", () => {
  it("names the disclosure shown in the text's locale, with its hash; a receipt written before that was recorded reads with them null", () => {
    const consent = consentByBusiness({ version: CONSENT_TEXTS.at(-1)!.version, locale: "fr-BE", agreedAt: "2026-11-29T10:00:00.000Z", softCreditSearch: false, disclosureVersion: COMMISSION_DISCLOSURES.at(-1)!.version });
    const fr = COMMISSION_DISCLOSURES.at(-1)!.texts.find((t) => t.locale === "fr-FR")!;
    expect(consent.receipt).toMatchObject({ locale: "fr-FR", disclosure_locale: "fr-FR", disclosure_sha256: fr.sha256 });
    const { disclosure_locale: _l, disclosure_sha256: _h, ...older } = consent.receipt!;
    expect(consentView({ ...consent, receipt: older as typeof consent.receipt }).receipt).toEqual({ ...older, disclosure_locale: null, disclosure_sha256: null });
  });
});
