/** Issue 45 item 6: the directors of a deal, application and register side by side (src/domain/deals/directors.ts). */
import { describe, expect, it } from "vitest";
import { directorsSideBySide, nameKey } from "../../../src/domain/deals/directors";

const register = (name: string | null, extra: Record<string, unknown> = {}) => ({ name, role: "director", appointed_on: "2019-03-14", resigned_on: null, disqualified: false, ...extra });

describe("directors side by side", () => {
  it("matches the register's SURNAME, Given to the application's name in any order and case, one row per person", () => {
    const rows = directorsSideBySide(
      [
        { full_name: "Ada Augusta Lovelace", date_of_birth: "1984-03-09", ownership_percent: 60 },
        { full_name: "Charles Babbage", date_of_birth: "1971-12-26", ownership_percent: 40 },
      ],
      [register("LOVELACE, Ada Augusta"), register("SOMERVILLE, Mary", { resigned_on: "2024-01-31" })],
    );
    expect(rows).toEqual([
      { name: "Ada Augusta Lovelace", application: { date_of_birth: "1984-03-09", ownership_percent: 60 }, register: { role: "director", appointed_on: "2019-03-14", resigned_on: null, disqualified: false } },
      { name: "Charles Babbage", application: { date_of_birth: "1971-12-26", ownership_percent: 40 }, register: null },
      { name: "Mary Somerville", application: null, register: { role: "director", appointed_on: "2019-03-14", resigned_on: "2024-01-31", disqualified: false } },
    ]);
  });

  it("keeps a masked register name as its own row, and reads accents and punctuation alike", () => {
    expect(nameKey("Zoë  O'Brien-Smith")).toBe(nameKey("SMITH, Zoe O BRIEN"));
    const rows = directorsSideBySide([], [register(null, { name_masked: true })]);
    expect(rows).toEqual([{ name: "Name withheld by the register", application: null, register: { role: "director", appointed_on: "2019-03-14", resigned_on: null, disqualified: false } }]);
    expect(directorsSideBySide([], null)).toEqual([]);
  });
});
