import { describe, expect, it } from "vitest";
import { matchBusiness, type BusinessFacts } from "../../../src/domain/panel/matcher";
import type { PanelProduct } from "../../../src/domain/panel/product";
import { product as productOf } from "./product";
import { heldRequirements, missingRequirements, requirementApplies, type Requirement } from "../../../src/domain/panel/requirements";
import { unlocksFor } from "../../../src/domain/panel/unlocks";
import { marketFor } from "../../../src/domain/reference/markets";

const GB = marketFor("GB");

const product = (over: Partial<PanelProduct> & Pick<PanelProduct, "id">): PanelProduct => productOf({ maxAmount: 500_000, ...over });

const GUARANTEE_FOR_SOLE_TRADERS: Requirement = { field: "significant_persons[].guarantee", when: { entity_types: ["sole_trader"], amount_below: 100_000 } };
const STATEMENTS_ABOVE_250K: Requirement = { field: "statements.6_months", when: { amount_at_least: 250_000 } };

const plain = product({ id: "plain" });
const guaranteed = product({ id: "guaranteed", lenderOrganisationId: "org_b", requires: [GUARANTEE_FOR_SOLE_TRADERS] });
const underwritten = product({ id: "underwritten", lenderOrganisationId: "org_c", requires: [STATEMENTS_ABOVE_250K] });
const panel = [plain, guaranteed, underwritten];

const facts = (over: Partial<BusinessFacts> = {}): BusinessFacts => ({ market: GB, purpose: "working_capital", amount: 50_000, ...over });

describe("requirementApplies: every condition given must hold; an unknown fact holds none", () => {
  it.each([
    [{ entityType: "sole_trader", amount: 99_999 }, true],
    [{ entityType: "sole_trader", amount: 100_000 }, false],
    [{ entityType: "private_limited_company", amount: 50_000 }, false],
    [{ entityType: null, amount: 50_000 }, false],
    [{ entityType: "sole_trader", amount: null }, false],
  ])("guarantee for sole traders under 100,000 with %o applies: %s", (conditionFacts, applies) => {
    expect(requirementApplies(GUARANTEE_FOR_SOLE_TRADERS, conditionFacts)).toBe(applies);
  });

  it("an amount_at_least bound is inclusive, and a requirement without when always applies", () => {
    expect(requirementApplies(STATEMENTS_ABOVE_250K, { entityType: null, amount: 250_000 })).toBe(true);
    expect(requirementApplies(STATEMENTS_ABOVE_250K, { entityType: null, amount: 249_999.99 })).toBe(false);
    expect(requirementApplies({ field: "contact.phone" }, { entityType: null, amount: null })).toBe(true);
  });

  it("missingRequirements names each lacking field once, in the reference list's order", () => {
    const requires: Requirement[] = [{ field: "statements.6_months" }, { field: "contact.phone" }, { field: "contact.phone" }];
    expect(missingRequirements(requires, { entityType: null, amount: 1 }, new Set())).toEqual(["contact.phone", "statements.6_months"]);
    expect(missingRequirements(requires, { entityType: null, amount: 1 }, new Set(["contact.phone"] as const))).toEqual(["statements.6_months"]);
  });
});

describe("heldRequirements: what the application holds", () => {
  const statement = (period_start: string, period_end: string) => ({ period_start, period_end });

  it("counts statement months as the distinct calendar months their periods cover together", () => {
    const two = heldRequirements({ significantPersons: [], statements: [statement("2026-01-01", "2026-03-31"), statement("2026-04-01", "2026-06-30")] });
    expect([...two]).toEqual(["statements.3_months", "statements.6_months"]);
    const overlapping = heldRequirements({ significantPersons: [], statements: [statement("2026-01-01", "2026-03-31"), statement("2026-02-01", "2026-04-30"), null] });
    expect([...overlapping]).toEqual(["statements.3_months"]);
    const acrossYear = heldRequirements({ significantPersons: [], statements: [statement("2025-11-15", "2026-10-02")] });
    expect(acrossYear.has("statements.12_months")).toBe(true);
  });

  it("holds a guarantee only when a person offers one, and the fields only when given", () => {
    const held = heldRequirements({
      business: { company_number: "01234567", vat: { number: null } },
      contact: { phone: "+44 20 7946 0000" },
      significantPersons: [{ guarantee: false }, { guarantee: null }],
      statements: [],
    });
    expect([...held].sort()).toEqual(["business.company_number", "contact.phone", "significant_persons"]);
    expect(heldRequirements({ significantPersons: [{ guarantee: true }], statements: [] }).has("significant_persons[].guarantee")).toBe(true);
  });
});

describe("matchBusiness with requirements", () => {
  it("leaves out a product whose applicable requirement the application lacks, and says what would add it", () => {
    const soleTrader = facts({ entityType: "sole_trader", held: new Set(["significant_persons"]) });
    const result = matchBusiness(soleTrader, panel);
    expect(result.matchedProducts.map((p) => p.productId)).toEqual(["plain", "underwritten"]);
    expect(result.reasons.map((r) => r.code)).toContain("requirements_not_met");
    expect(result.reasons.find((r) => r.code === "requirements_not_met")!.detail).toBe(
      "1 option needs what the application does not hold yet: a personal guarantee from a significant person.",
    );
    expect(result.needs).toEqual([{ fields: ["significant_persons[].guarantee"], options_added: 1 }]);
  });

  it("routes to it once the application holds it", () => {
    const withGuarantee = matchBusiness(facts({ entityType: "sole_trader", held: new Set(["significant_persons", "significant_persons[].guarantee"]) }), panel);
    expect(withGuarantee.matchedOptions).toBe(3);
    expect(withGuarantee.needs).toEqual([]);
  });

  it("a condition that does not hold, or an unknown company type, requires nothing", () => {
    expect(matchBusiness(facts({ entityType: "private_limited_company" }), panel).matchedOptions).toBe(3);
    expect(matchBusiness(facts({ entityType: null }), panel).matchedOptions).toBe(3);
    expect(matchBusiness(facts({ entityType: "sole_trader", amount: 120_000 }), panel).matchedOptions).toBe(3);
  });

  it("a product also out on another criterion is no need: adding the field would not add it", () => {
    const small = product({ id: "small", maxAmount: 200_000, requires: [STATEMENTS_ABOVE_250K] });
    const result = matchBusiness(facts({ amount: 300_000 }), [plain, small, underwritten]);
    expect(result.matchedProducts.map((p) => p.productId)).toEqual(["plain"]);
    expect(result.needs).toEqual([{ fields: ["statements.6_months"], options_added: 1 }]);
  });

  it("groups products lacking several fields, fewest fields first", () => {
    const both = product({ id: "both", lenderOrganisationId: "org_d", requires: [{ field: "contact.phone" }, { field: "statements.3_months" }] });
    const phone = product({ id: "phone", lenderOrganisationId: "org_e", requires: [{ field: "contact.phone" }] });
    const result = matchBusiness(facts(), [plain, both, phone]);
    expect(result.needs).toEqual([
      { fields: ["contact.phone"], options_added: 1 },
      { fields: ["contact.phone", "statements.3_months"], options_added: 2 },
    ]);
  });

  it("prequalification holds nothing it was not given, so its unlocks name the requirement (a single field)", () => {
    const big = facts({ amount: 300_000 });
    const result = matchBusiness(big, panel);
    expect(result.matchedOptions).toBe(2);
    expect(unlocksFor(big, panel, result)).toContainEqual({ field: "statements.6_months", needed: true, options_added: 1 });
  });
});
