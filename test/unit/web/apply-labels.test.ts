// The application pages label every reference value and register status word in the page's
// language. The codes are the reference lists'; this checks each language has its own label for every
// code of every list, so a code added to a list fails here until each language words it.
import { describe, expect, it } from "vitest";
import { ALL_COMPANY_TYPE_VALUES, CREDIT_SCORE_BANDS, INDUSTRIES, PRODUCT_FAMILIES, PURPOSES } from "../../../src/domain/reference/values";
import { REGISTER_STATUS_WORDS } from "../../../src/domain/registers/facts";
import { MARKETS, marketFor } from "../../../src/domain/reference/markets";
import { REFERENCE_LABELS } from "../../../src/web/apply/labels";
import { applyLocale } from "../../../src/web/apply/messages";
import { registerStatusIn, stepFields } from "../../../src/web/apply/fields";

const LANGUAGES = ["en", "es", "nl", "da", "sv", "pl", "fr"];
const LISTS = {
  industry: INDUSTRIES.map((e) => e.value),
  purpose: PURPOSES.map((e) => e.value),
  product_family: PRODUCT_FAMILIES.map((e) => e.value),
  credit_score_band: CREDIT_SCORE_BANDS.map((e) => e.value),
  company_type: [...ALL_COMPANY_TYPE_VALUES],
  register_status: [...REGISTER_STATUS_WORDS],
} as const;

describe("the application pages' labels of reference values", () => {
  it("have a label for every code of every list in every language the pages speak", () => {
    expect(Object.keys(REFERENCE_LABELS).sort()).toEqual([...LANGUAGES].sort());
    for (const language of LANGUAGES) {
      const labels = REFERENCE_LABELS[language]!;
      for (const [list, codes] of Object.entries(LISTS)) {
        const table = labels[list as keyof typeof LISTS] as Record<string, string>;
        const missing = codes.filter((code) => !(typeof table[code] === "string" && table[code]!.trim() !== ""));
        expect(missing, `${language} ${list}`).toEqual([]);
        // No label for a code the list does not have: a renamed code must be renamed here too.
        expect(Object.keys(table).filter((code) => !(codes as readonly string[]).includes(code)), `${language} ${list} extra`).toEqual([]);
      }
    }
  });

  it("label each market's selects in the page's language: company types in the market's own words, or the page's where it speaks another", () => {
    const spain = marketFor("ES");
    const es = stepFields("business", spain, applyLocale("ES", undefined));
    expect(es.find((f) => f.name === "business.industry")!.options!.find((o) => o.value === "hospitality")!.label).toBe("Hostelería (restaurantes, bares, hoteles)");
    expect(es.find((f) => f.name === "business.entity_type")!.options!.map((o) => o.label)).toContain("Sociedad limitada (SL)");
    const canadaInFrench = stepFields("business", marketFor("CA"), applyLocale("CA", "fr-CA"));
    expect(canadaInFrench.find((f) => f.name === "business.entity_type")!.options!.map((o) => o.label)).toEqual(["Société par actions", "Société de personnes", "Entreprise individuelle"]);
    const uk = stepFields("business", marketFor("GB"), applyLocale("GB", undefined));
    expect(uk.find((f) => f.name === "business.entity_type")!.options!.map((o) => o.label)).toContain("Private limited company (Ltd)");
    // Every market's every select has as many options as its list, each with a label, in every language it is offered in.
    for (const market of MARKETS) {
      for (const accept of [undefined, "fr"]) {
        for (const step of ["business", "funding", "trading"] as const) {
          for (const f of stepFields(step, market, applyLocale(market.country, accept)).filter((f) => f.options)) expect(f.options!.every((o) => o.label.trim() !== ""), `${market.country} ${f.name}`).toBe(true);
        }
      }
    }
  });

  it("word the register's status in the page's language, as the register wrote it when it is no known word", () => {
    expect(registerStatusIn("Dissolved", applyLocale("ES", undefined))).toBe("disuelta");
    expect(registerStatusIn("insolvency-proceedings", applyLocale("PL", undefined))).toBe("w postępowaniu upadłościowym");
    expect(registerStatusIn("active", applyLocale("GB", undefined))).toBe("active");
    expect(registerStatusIn("Something-New", applyLocale("FR", undefined))).toBe("something new");
  });
});
