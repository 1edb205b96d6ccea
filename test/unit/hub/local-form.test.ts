import { describe, expect, it } from "vitest";
import { instantOfWallClock, localFormOf, wallClockOfInstant } from "../../../src/domain/hub/local-form";
import { MARKETS } from "../../../src/domain/reference/markets";

describe("the business's local form", () => {
  it("shows an instant in the market's zone, in its locale, naming the zone", () => {
    const winter = "2026-01-15T12:30:00.000Z";
    const summer = "2026-07-15T12:30:00.000Z";
    expect(localFormOf("GB").time(winter)).toBe("15 Jan 2026, 12:30 GMT");
    expect(localFormOf("GB").time(summer)).toBe("15 Jul 2026, 13:30 BST");
    expect(localFormOf("US").time(winter)).toMatch(/^Jan 15, 2026, 07:30 AM EST$/);
    expect(localFormOf("AU").time(winter)).toBe("15 Jan 2026, 11:30 pm AEDT");
    expect(localFormOf("ES").timeZone).toBe("Europe/Madrid");
  });

  it("gives every served market a zone and a locale Intl knows, one per market in the market table", () => {
    for (const m of MARKETS) {
      expect(() => new Intl.DateTimeFormat(m.locale, { timeZone: m.time_zone }), m.country).not.toThrow();
      expect(new Intl.DateTimeFormat(m.locale, { timeZone: m.time_zone }).resolvedOptions().timeZone, m.country).toBe(m.time_zone);
      expect(localFormOf(m.country).time("2026-03-01T10:00:00Z"), m.country).toMatch(/\d{2}/);
    }
  });

  it("falls back to UTC for a country that is no served market, and shows nothing for no time", () => {
    const form = localFormOf("DE");
    expect(form.timeZone).toBe("UTC");
    expect(form.time("2026-01-15T12:30:00Z")).toBe("15 Jan 2026, 12:30 UTC");
    expect(form.time(null)).toBe("");
    expect(form.time("not a date")).toBe("");
    expect(localFormOf(null).timeZone).toBe("UTC");
  });

  it("writes amounts in the market's form and currency", () => {
    expect(localFormOf("GB").money(40_000, "GBP")).toBe("£40,000");
    expect(localFormOf("US").money(1234.5, "USD")).toBe("$1,234.50");
    expect(localFormOf("GB").money(10, "XXZ")).toMatch(/10/);
  });

  it("writes a calendar day in the market's locale, with no zone to move it, and nothing for none or an unreadable day", () => {
    expect(localFormOf("GB").date("2019-03-14")).toBe("14 Mar 2019");
    expect(localFormOf("US").date("2019-03-14")).toBe("Mar 14, 2019");
    // A zone west of UTC must not show the day before.
    expect(localFormOf("CA").date("2019-03-14")).toContain("14");
    expect(localFormOf("GB").date(null)).toBe("");
    expect(localFormOf("GB").date("14/03/2019")).toBe("");
    expect(localFormOf("GB").date("2019-02-30T10:00:00Z")).toBe("");
  });
});

describe("a reader's own zone (issue 45 item 10)", () => {
  it("shows times in the zone given, named, in the market's locale", () => {
    expect(localFormOf("GB", "Europe/Paris").time("2026-12-08T06:24:00Z")).toBe("8 Dec 2026, 07:24 CET");
    expect(localFormOf("GB", "UTC").time("2026-07-08T06:24:00Z")).toBe("8 Jul 2026, 06:24 UTC");
    expect(localFormOf("GB").time("2026-07-08T06:24:00Z")).toBe("8 Jul 2026, 07:24 BST");
  });

  it("reads a typed date and time in a zone as the instant it names, and back, across daylight saving", () => {
    expect(instantOfWallClock("2026-11-01T10:00", "UTC")).toBe("2026-11-01T10:00:00Z");
    expect(instantOfWallClock("2026-11-01T10:00", "Europe/Paris")).toBe("2026-11-01T09:00:00Z");
    expect(instantOfWallClock("2026-07-01T10:00", "Europe/London")).toBe("2026-07-01T09:00:00Z");
    expect(instantOfWallClock("2026-07-01T10:00", "America/New_York")).toBe("2026-07-01T14:00:00Z");
    expect(instantOfWallClock("yesterday", "UTC")).toBeNull();
    expect(wallClockOfInstant("2026-07-01T09:00:00Z", "Europe/London")).toBe("2026-07-01T10:00");
    expect(wallClockOfInstant("2026-11-01T09:00:00Z", "Europe/Paris")).toBe("2026-11-01T10:00");
    expect(wallClockOfInstant(null, "UTC")).toBe("");
  });
});
