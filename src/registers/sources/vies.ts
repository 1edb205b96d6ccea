import { z } from "zod";
import { parseBody, text } from "../answer";
import type { SourceContext } from "../context";
import { requestJson } from "../http";
import type { VatOutcome } from "../outcome";
import type { VatSource } from "../source";
import { normaliseVatNumber, vatChecked, vatFromFailure, vatUnanswered } from "../vat";

/**
 * EU VAT: the European Commission's VIES REST service
 * (GET /ms/{countryCode}/vat/{vatNumber}; no key). VIES answers 200 for valid
 * and invalid numbers alike (`isValid`, `userError`); a member state that does
 * not answer shows as `userError` MS_UNAVAILABLE / TIMEOUT / *_MAX_CONCURRENT_REQ,
 * or as `{actionSucceed: false, errorWrappers: [{error}]}`. A trader who keeps
 * name or address private is shown as "---", which becomes null.
 */

const SOURCE = "vies";

/** National number patterns per served market (VIES's own format rules, letters allowed where the member state uses them). */
const NATIONAL_PATTERNS: Readonly<Record<string, RegExp>> = {
  IE: /^\d{7}[A-W][A-IW]?$|^\d[A-Z+*]\d{5}[A-W]$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  NL: /^\d{9}B\d{2}$/,
  BE: /^[01]\d{9}$/,
  DK: /^\d{8}$/,
  SE: /^\d{10}01$/,
  PL: /^\d{10}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
};

export const VIES_COUNTRIES = Object.keys(NATIONAL_PATTERNS);

const checkResponse = z.union([
  z.object({
    isValid: z.boolean(),
    requestDate: z.string().nullish(),
    userError: z.string().nullish(),
    name: z.string().nullish(),
    address: z.string().nullish(),
  }),
  z.object({ actionSucceed: z.literal(false), errorWrappers: z.array(z.object({ error: z.string(), message: z.string().nullish() })).default([]) }),
]);

/**
 * VIES's error codes (the EC's list): only VALID and INVALID are answers, and
 * INVALID_INPUT (the number itself was refused) is "not valid". Every other
 * code is "not answered", whether it arrives as `userError` beside
 * `isValid: false` or in an `{actionSucceed: false, errorWrappers}` body (both
 * with HTTP 200): the throttles are `rate_limited`, TIMEOUT `timeout`, the
 * rest (and any code we do not know) `unavailable`; all are asked again.
 */
const ANSWERS = new Set(["VALID", "INVALID"]);
const REFUSED_NUMBER = "INVALID_INPUT";
const THROTTLES = new Set(["GLOBAL_MAX_CONCURRENT_REQ", "GLOBAL_MAX_CONCURRENT_REQ_TIME", "MS_MAX_CONCURRENT_REQ", "MS_MAX_CONCURRENT_REQ_TIME"]);

export function notAnsweredReason(code: string): "rate_limited" | "timeout" | "unavailable" {
  if (THROTTLES.has(code)) return "rate_limited";
  return code === "TIMEOUT" ? "timeout" : "unavailable";
}

/** Old Belgian numbers have 9 digits; VIES wants the 10-digit form with a leading 0. */
const widen = (country: string, national: string) => (country === "BE" && /^\d{9}$/.test(national) ? `0${national}` : national);

export function viesFor(country: string): VatSource | null {
  const pattern = NATIONAL_PATTERNS[country];
  if (!pattern) return null;

  async function check(input: string, ctx: SourceContext): Promise<VatOutcome> {
    const compact = input.toUpperCase().replace(/[^A-Z0-9]/g, "");
    const national = compact.startsWith(country) ? compact.slice(country.length) : compact;
    const normalised = normaliseVatNumber(widen(country, national), country, pattern);
    if (!normalised) return vatChecked(input, false, {}, ctx);
    const result = await requestJson(ctx, {
      source: SOURCE,
      operation: "check_vat_number",
      url: `${ctx.config.vies.baseUrl}/ms/${country}/vat/${encodeURIComponent(normalised.national)}`,
      headers: { Accept: "application/json" },
    });
    const parsed = parseBody(result, checkResponse, ctx, { source: SOURCE, operation: "check_vat_number" });
    if (!parsed.ok) return vatFromFailure(normalised.number, parsed.failure);
    const body = parsed.value;
    const errorCode = "actionSucceed" in body ? (body.errorWrappers[0]?.error ?? "SERVICE_UNAVAILABLE") : (text(body.userError) ?? null);
    if (errorCode === REFUSED_NUMBER) return vatChecked(normalised.number, false, {}, ctx);
    if ("actionSucceed" in body || (errorCode !== null && !ANSWERS.has(errorCode))) {
      const code = errorCode ?? "SERVICE_UNAVAILABLE";
      ctx.log({ source: SOURCE, operation: "check_vat_number", outcome: code.toLowerCase(), status: result.ok ? result.status : null });
      return vatUnanswered(normalised.number, notAnsweredReason(code), { retryable: true, retryAfterSeconds: null });
    }
    return vatChecked(
      normalised.number,
      body.isValid,
      body.isValid ? { registered_name: text(body.name), registered_address: text(body.address)?.replace(/\s*\n\s*/g, ", ") ?? null } : {},
      ctx,
    );
  }

  return { source: SOURCE, check };
}
