import type { RegisterQuery } from "../../domain/registers/types";
import type { SourceContext } from "../context";
import { unavailable, type RegisterOutcome, type VatOutcome } from "../outcome";
import type { RegisterSource, VatSource } from "../source";
import { vatUnanswered } from "../vat";
import { abnLookup } from "./abn-lookup";
import { companiesHouse } from "./companies-house";
import { hmrcVat } from "./hmrc-vat";
import { krsRegister } from "./krs";
import { rechercheEntreprises } from "./recherche-entreprises";
import { VIES_COUNTRIES, viesFor } from "./vies";

/**
 * Which register answers for which market: the one table the lookup reads.
 * A market (or a US state) without a source still answers, with the reason.
 */

const REGISTER_SOURCES: Readonly<Record<string, RegisterSource>> = {
  GB: companiesHouse,
  FR: rechercheEntreprises,
  PL: krsRegister,
  AU: abnLookup,
};

const VAT_SOURCES: Readonly<Record<string, VatSource>> = {
  GB: hmrcVat,
  ...Object.fromEntries(VIES_COUNTRIES.map((country) => [country, viesFor(country)!])),
};

/** A market with no connected register. */
const noRegister = (source: string, reason: "unavailable" | "not_available_in_state"): RegisterSource => ({
  source,
  lookup: async () => unavailable(reason),
});

const normalise = (country: string) => {
  const upper = country.trim().toUpperCase();
  return upper === "UK" ? "GB" : upper;
};

export function registerSourceFor(country: string, usState?: string | null): RegisterSource {
  const market = normalise(country);
  // No US secretary of state publishes an open, documented API the service can use; every state answers so.
  if (market === "US") return noRegister(`us_state_register${usState ? `:${usState.trim().toUpperCase()}` : ""}`, "not_available_in_state");
  return REGISTER_SOURCES[market] ?? noRegister("none", "unavailable");
}

/** The VAT register for a market, or null where the spec checks none. */
export function vatSourceFor(country: string): VatSource | null {
  return VAT_SOURCES[normalise(country)] ?? null;
}

/** Looks a company up in its market's register (or answers why there is none). */
export function lookupRegister(query: RegisterQuery, ctx: SourceContext): Promise<RegisterOutcome> {
  return registerSourceFor(query.country, query.us_state).lookup(query, ctx);
}

/**
 * Checks a VAT number in its market's VAT register. Null where the market
 * checks none (the spec's `vat` does not exist there); `reason: "no_number"`
 * when no number was given.
 */
export async function checkVat(country: string, number: string | null | undefined, ctx: SourceContext): Promise<VatOutcome | null> {
  const source = vatSourceFor(country);
  if (!source) return null;
  if (!number || number.trim() === "") return vatUnanswered(null, "no_number");
  return source.check(number, ctx);
}
