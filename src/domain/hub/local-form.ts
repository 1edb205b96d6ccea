/**
 * Times and amounts in the business's local form. The business's zone and
 * locale are its market's (`time_zone`, `locale` in the market table, the one
 * source of truth); a country that is not a served market falls back to UTC in
 * en-GB, so a page never fails over a missing zone. Every time names its zone
 * (`23 Nov 2026, 21:58 GMT`), so a business in another zone of a wide market
 * can still read it exactly. Pure (Intl only).
 */
import { resolveCountry } from "../reference/markets";

export interface LocalForm {
  /** An ISO instant as the business reads it, with the zone; "" for none. */
  time: (iso: string | null | undefined) => string;
  /** A calendar date (`2019-03-14`) as the business reads it, `14 Mar 2019`: a day, so no zone; "" for none or an unreadable one. */
  date: (day: string | null | undefined) => string;
  /** An amount in its currency, in the business's number form; two decimals only where fractional. */
  money: (amount: number, currency: string) => string;
  /** The zone the times are shown in (IANA name), for the page's explanation. */
  timeZone: string;
}

const FALLBACK = { time_zone: "UTC", locale: "en-GB" };

/**
 * `zone`, when given, is the reader's own (a portal member's chosen zone): times are shown in it,
 * named, with the market's locale; without it, in the market's zone.
 */
export function localFormOf(country: string | null | undefined, zone?: string): LocalForm {
  const resolved = country ? resolveCountry(country) : null;
  const market = resolved?.ok ? resolved.market : FALLBACK;
  const { locale } = market;
  const timeZone = zone ?? market.time_zone;
  const times = new Intl.DateTimeFormat(locale, { timeZone, year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" });
  // A register's date is a day, not an instant: read and written in UTC so no zone moves it to the day before.
  const days = new Intl.DateTimeFormat(locale, { timeZone: "UTC", year: "numeric", month: "short", day: "numeric" });
  return {
    timeZone,
    date: (day) => {
      if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return "";
      const at = new Date(`${day}T00:00:00Z`);
      return Number.isNaN(at.getTime()) ? "" : days.format(at);
    },
    time: (iso) => {
      if (!iso) return "";
      const at = new Date(iso);
      return Number.isNaN(at.getTime()) ? "" : times.format(at);
    },
    money: (amount, currency) => {
      try {
        // Two decimals only where the amount has a fraction: £40,000 and £40,000.50 (the portal's and the hub's one rule).
        const whole = Number.isInteger(amount);
        return new Intl.NumberFormat(locale, { style: "currency", currency, minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: 2 }).format(amount);
      } catch {
        // A currency code Intl does not know still shows, plainly.
        return `${amount} ${currency}`;
      }
    },
  };
}

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** How many minutes `zone` is ahead of UTC at this instant (Intl's own calendar data). */
function offsetMinutes(at: number, zone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" }).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return (Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second")) - at) / 60_000;
}

/**
 * A wall-clock time typed in a zone (`<input type="datetime-local">`, `2026-11-01T10:00`) as the
 * instant it names (`2026-11-01T09:00:00Z` in Europe/Paris); null for anything else. A time the
 * zone skips (a spring-forward hour) is read with the offset after the change.
 */
export function instantOfWallClock(local: string, zone: string): string | null {
  const m = WALL_CLOCK.exec(local);
  if (!m) return null;
  const asUtc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  if (Number.isNaN(asUtc)) return null;
  let at = asUtc - offsetMinutes(asUtc, zone) * 60_000;
  const again = asUtc - offsetMinutes(at, zone) * 60_000;
  if (again !== at) at = again;
  return new Date(at).toISOString().replace(".000Z", "Z");
}

/** An instant as the wall-clock time of a zone, for a `datetime-local` input (`2026-11-01T10:00`); "" for none or an unreadable one. */
export function wallClockOfInstant(iso: string | null | undefined, zone: string): string {
  const at = iso ? Date.parse(iso) : NaN;
  if (Number.isNaN(at)) return "";
  return new Date(at + offsetMinutes(at, zone) * 60_000).toISOString().slice(0, 16);
}
