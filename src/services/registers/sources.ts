/**
 * The one place that decides which register a lookup asks: a sandbox lead is
 * only ever answered by the sandbox's fixtures (src/registers/sandbox.ts), so
 * no sandbox lookup reaches a real register; a live lead by its market's real
 * source (src/registers/select.ts), configured from Worker vars and secrets.
 */
import { registerConfigFrom } from "../../registers/config";
import { sourceContextFrom } from "../../registers/context";
import { pacerFor } from "../../registers/pacing";
import { sandboxRegisterSource, sandboxVatSource } from "../../registers/sources/sandbox";
import { registerSourceFor, vatSourceFor } from "../../registers/sources/select";
import type { LookupSources } from "./attempts";
import type { Deps } from "../deps";

export const lookupSources: LookupSources = {
  registry: (environment, query) => (environment === "sandbox" ? sandboxRegisterSource : registerSourceFor(query.country, query.us_state)),
  vat: (environment, country) => (environment === "sandbox" ? sandboxVatSource(country) : vatSourceFor(country)),
};

/**
 * The consumer's context: the registers as configured, paced by the pacer of
 * this deployment key (the same registers and the same Companies House key
 * share one allowance; src/registers/pacing.ts).
 */
export function lookupContext({ env }: Deps) {
  const config = registerConfigFrom(env);
  return sourceContextFrom(env, { pacer: pacerFor(JSON.stringify(config)) });
}
