// A refused application step speaks the page's language: each problem is worded by its kind and field
// (web/apply/refusals.ts). Every kind the application's forms can produce has a sentence in every
// language the pages speak; an English page keeps the kit's own words.
import { describe, expect, it } from "vitest";
import type { MessageKind } from "../../../src/web/kit/messages";
import type { PageRefusal } from "../../../src/web/kit/refusal";
import { applyLocale } from "../../../src/web/apply/messages";
import { refusalInPageWords } from "../../../src/web/apply/refusals";

// Not on the application's forms: `too_many` (no list input), `bad_url` (no address input), `unknown_field` (a crafted post only).
const KINDS: MessageKind[] = ["required", "required_for_submit", "not_a_number", "not_text", "not_a_choice", "too_small", "too_big", "too_long", "bad_email", "bad_date", "bad_format", "not_a_whole_number", "not_plain_text", "invalid"];
const COUNTRIES = { es: "ES", nl: "NL", da: "DK", sv: "SE", pl: "PL", fr: "FR" } as const;
const refusal = (problems: PageRefusal["problems"], code: PageRefusal["code"] = "invalid_request"): PageRefusal => ({ code, status: 400, field: problems[0]?.field ?? null, message: problems[0]?.message ?? "", problems });
const locked = { fields: ["business.name"], by: "Smith & Co" };

describe("a refused application step in the page's language", () => {
  it("has a sentence for every kind in every language, its limit filled in; several problems are summed up in the language too", () => {
    for (const [language, country] of Object.entries(COUNTRIES)) {
      const l = applyLocale(country, undefined);
      for (const kind of KINDS) {
        const worded = refusalInPageWords(refusal([{ field: "business.name", message: "ENGLISH", kind, limit: "200" }]), l, locked);
        expect(worded.problems[0]!.message, `${language} ${kind}`).not.toBe("ENGLISH");
        expect(worded.problems[0]!.message, `${language} ${kind}`).not.toMatch(/\{\w+\}/);
        if (kind === "too_long") expect(worded.problems[0]!.message).toContain("200");
      }
      const two = refusalInPageWords(refusal([{ field: "contact.email", message: "A", kind: "bad_email" }, { field: "contact.phone", message: "B", kind: "bad_format" }]), l, locked);
      expect(two.message, language).toContain("2");
      expect(two.message, language).not.toMatch(/fields need attention/);
    }
  });

  it("words a field that says more than its kind, a locked field by the introducer's name, and keeps English for a rule's own sentence and on English pages", () => {
    const fr = applyLocale("FR", undefined);
    expect(refusalInPageWords(refusal([{ field: "significant_persons", message: "over", kind: "invalid" }]), fr, locked).problems[0]!.message).toBe("Les parts de toutes les personnes dépassent 100 % au total.");
    expect(refusalInPageWords(refusal([{ field: "business.name", message: "Smith & Co filled this in" }], "invalid_value"), fr, locked).problems[0]!.message).toBe(
      "Smith & Co a rempli ce champ et il ne peut pas être modifié ici ; demandez-lui de le corriger s'il est faux.",
    );
    expect(refusalInPageWords(refusal([{ field: "file", message: "The file a.pdf is empty.", kind: null }]), fr, locked).problems[0]!.message).toBe("The file a.pdf is empty.");
    const english = refusal([{ field: "contact.email", message: "Enter the email like name@example.com.", kind: "bad_email" }]);
    expect(refusalInPageWords(english, applyLocale("GB", undefined), locked)).toBe(english);
  });
});
