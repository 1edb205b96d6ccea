import { unavailable } from "../outcome";
import type { RegisterSource, VatSource } from "../source";
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
