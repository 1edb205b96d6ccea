import type { Environment, KeyKind } from "./keys";

/** Who is calling: resolved once by the auth middleware, read by every handler. */
export interface Caller {
  organisationId: string;
  organisationKind: "partner" | "lender";
  keyId: string;
  clientId: string;
  keyKind: KeyKind;
  environment: Environment;
  allowedOrigins: string[];
  via: "api_key" | "bearer";
}

/** The scope every stored record is read and written under: no query crosses it. */
export interface Scope {
  organisationId: string;
  environment: Environment;
}

export const scopeOf = (caller: Caller): Scope => ({ organisationId: caller.organisationId, environment: caller.environment });
