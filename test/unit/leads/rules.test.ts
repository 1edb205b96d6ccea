import { describe, expect, it } from "vitest";
import { marketProblems } from "../../../src/domain/leads/market-rules";
import { mergeParts } from "../../../src/domain/leads/patch";
import { missingForSubmit } from "../../../src/domain/leads/submission";
import { dateOfBirthProblem, personKeys, totalOwnershipProblem } from "../../../src/domain/leads/persons";
import { marketFor } from "../../../src/domain/reference/markets";

const today = new Date("2026-11-22T12:00:00Z");

describe("missingForSubmit", () => {
  it("names each missing UK field as a path", () => {
    expect(missingForSubmit({ business: null, trading: null, funding: null }, marketFor("GB"))).toEqual([
      "business.company_number",
      "business.entity_type",
      "trading.monthly_revenue",
      "trading.tib_months",
    ]);
  });
  it("accepts a band for a figure", () => {
    expect(missingForSubmit({ business: null, trading: { monthly_revenue_band: "under_10k", tib_months: 4 }, funding: null }, marketFor("IE"))).toEqual([]);
  });
  it("asks the US for a credit score band", () => {
    expect(missingForSubmit({ business: null, trading: { monthly_revenue: 1, time_in_business_band: "under_6m" }, funding: null }, marketFor("US"))).toEqual([
      "trading.credit_score_band",
    ]);
  });
});

describe("marketProblems", () => {
  it("refuses fields the market does not have and company types of other markets", () => {
    const fields = marketProblems(
      { business: { company_number: "B123", entity_type: "llc", vat: { number: "X" } }, trading: { credit_score_band: "740_plus" }, funding: null },
      marketFor("ES"),
    ).map((p) => p.field);
    expect(fields).toEqual(["trading.credit_score_band", "business.company_number", "business.entity_type"]);
    expect(marketProblems({ business: { vat: { number: "1" } }, trading: null, funding: null }, marketFor("US")).map((p) => p.field)).toEqual(["business.vat"]);
  });
});

describe("mergeParts", () => {
  it("merges key by key, clears with null and replaces persons whole", () => {
    const held = {
      partnerReference: "a",
      channel: null,
      business: { name: "A", vat: { number: "1" } },
      contact: { first_name: "x", phone: "1" },
      funding: null,
      trading: null,
      consent: null,
      significantPersons: [],
    };
    const merged = mergeParts(held, { business: { name: "B", vat: null }, contact: { phone: null }, funding: { amount: 5 } });
    expect(merged.business).toEqual({ name: "B" });
    expect(merged.contact).toEqual({ first_name: "x" });
    expect(merged.funding).toEqual({ amount: 5 });
    expect(merged.partnerReference).toBe("a");
    expect(mergeParts(held, { business: null, partner_reference: null }).business).toBeNull();
  });
});

describe("dateOfBirthProblem", () => {
  it.each([
    ["1990-02-30", "is not a real calendar date"],
    ["1990-13-01", "is not a real calendar date"],
    ["09/03/1984", "must be a date written YYYY-MM-DD"],
    ["2027-01-01", "must be in the past"],
    ["2008-11-23", "the person must be at least 18 years old"],
    ["1890-01-01", "is more than 120 years ago"],
  ])("refuses %s", (dob, problem) => {
    expect(dateOfBirthProblem(dob, today)).toBe(problem);
  });
  it("accepts an 18th birthday today and a leap day", () => {
    expect(dateOfBirthProblem("2008-11-22", today)).toBeNull();
    expect(dateOfBirthProblem("1988-02-29", today)).toBeNull();
  });
});

describe("totalOwnershipProblem", () => {
  it("allows up to 100 in total", () => {
    expect(totalOwnershipProblem([{ ownership_percent: 33.34 }, { ownership_percent: 33.33 }, { ownership_percent: 33.33 }])).toBeNull();
    expect(totalOwnershipProblem([{ ownership_percent: 60 }, { ownership_percent: 41 }])).toMatch(/cannot exceed 100/);
  });
});

describe("personKeys: a person named by what they hold, not by their place (issue 39 item 2)", () => {
  const ann = { full_name: "Ann", date_of_birth: "1980-01-01", residential_address: { line1: "1 Road", postal_code: "A1 1AA" }, ownership_percent: 10 };
  const bob = { ...ann, full_name: "Bob", ownership_percent: 20 };
  const cy = { ...ann, full_name: "Cy", ownership_percent: 30 };

  it("keeps each person's key when another is removed or the list is reordered", () => {
    const [, bobKey, cyKey] = personKeys([ann, bob, cy]);
    expect(personKeys([bob, cy])).toEqual([bobKey, cyKey]);
    expect(personKeys([cy, bob])).toEqual([cyKey, bobKey]);
  });

  it("changes a person's key when what they hold changes, whatever the key order of the stored object", () => {
    const [annKey] = personKeys([ann]);
    expect(personKeys([{ ...ann, ownership_percent: 11 }])[0]).not.toBe(annKey);
    const reordered = { ownership_percent: 10, residential_address: { postal_code: "A1 1AA", line1: "1 Road" }, date_of_birth: "1980-01-01", full_name: "Ann" };
    expect(personKeys([reordered])[0]).toBe(annKey);
  });

  it("tells identical persons apart and keeps keys URL-safe", () => {
    const keys = personKeys([ann, { ...ann }, bob]);
    expect(new Set(keys).size).toBe(3);
    for (const key of keys) expect(key).toMatch(/^[0-9a-z-]+$/);
  });
});
