/**
 * The one place that decides which register a lookup asks: a sandbox lead is
 * only ever answered by the sandbox's fixtures (src/registers/sources/sandbox.ts), so
 * no sandbox lookup reaches a real register; a live lead by its market's real
 * source (src/registers/sources/select.ts), configured from Worker vars and secrets.
 */
import { registerConfigFrom } from "../../registers/config";
import { sourceContextFrom } from "../../registers/context";
import type { CallBudget } from "../../registers/pacing";
import { durablePacer } from "./pacer";
import { sandboxRegisterSource, sandboxVatSource } from "../../registers/sources/sandbox";
import { registerSourceFor, vatSourceFor } from "../../registers/sources/select";
import type { LookupSources } from "./attempts";
import type { Deps } from "../deps";

export const lookupSources: LookupSources = {
  registry: (environment, query) => (environment === "sandbox" ? sandboxRegisterSource : registerSourceFor(query.country, query.us_state)),
  vat: (environment, country) => (environment === "sandbox" ? sandboxVatSource(country) : vatSourceFor(country)),
};

/**
 * The consumer's context: the registers as configured, paced by the Durable Objects of this deployment
 * key (the same registers and the same Companies House key share one allowance, whichever invocation
 * asks; src/services/registers/pacer.ts). `budgets` is for tests only (a budget small enough to spend).
 */
export function lookupContext(deps: Deps, budgets?: Readonly<Record<string, CallBudget>>) {
  const config = registerConfigFrom(deps.env);
  return sourceContextFrom(deps.env, { pacer: durablePacer(deps, JSON.stringify(config), budgets) });
}
