/**
 * Where each register lives and the credentials it needs, read from Worker
 * vars and secrets. The public base URLs have defaults; the keyed sources
 * (Companies House, HMRC, ABN Lookup) have none, so an unconfigured
 * deployment answers `not_configured` instead of calling anything.
 */

/** The Worker vars and secrets the adapters read; all optional. */
export interface RegisterEnv {
  /** Companies House public data API; default https://api.company-information.service.gov.uk */
  COMPANIES_HOUSE_API_URL?: string;
  /** Secret: the Companies House REST API key (sent as the basic-auth user name). */
  COMPANIES_HOUSE_API_KEY?: string;
  /** HMRC API platform; default https://api.service.hmrc.gov.uk (sandbox: https://test-api.service.hmrc.gov.uk). */
  HMRC_VAT_API_URL?: string;
  /** Secrets: HMRC application client credentials (OAuth 2.0 client-credentials grant, scope read:vat). */
  HMRC_CLIENT_ID?: string;
  HMRC_CLIENT_SECRET?: string;
  /** Secret: a ready HMRC bearer token, used instead of the client credentials when set. */
  HMRC_VAT_BEARER_TOKEN?: string;
  /** EU VIES REST service; default https://ec.europa.eu/taxation_customs/vies/rest-api */
  VIES_API_URL?: string;
  /** French company search; default https://recherche-entreprises.api.gouv.fr */
  FR_API_URL?: string;
  /** Polish KRS open API; default https://api-krs.ms.gov.pl */
  KRS_API_URL?: string;
  /** ABN Lookup JSON service; default https://abr.business.gov.au/json */
  ABN_LOOKUP_API_URL?: string;
  /** Secret: the ABN Lookup web-services GUID. */
  ABN_LOOKUP_GUID?: string;
  /** Per-call timeout in milliseconds; default 8000. */
  REGISTER_TIMEOUT_MS?: string;
}

export interface RegisterConfig {
  companiesHouse: { baseUrl: string; apiKey: string | null };
  hmrc: { baseUrl: string; clientId: string | null; clientSecret: string | null; bearerToken: string | null };
  vies: { baseUrl: string };
  franceSearch: { baseUrl: string };
  krs: { baseUrl: string };
  abnLookup: { baseUrl: string; guid: string | null };
}

export const DEFAULT_BASE_URLS = {
  companiesHouse: "https://api.company-information.service.gov.uk",
  hmrc: "https://api.service.hmrc.gov.uk",
  vies: "https://ec.europa.eu/taxation_customs/vies/rest-api",
  franceSearch: "https://recherche-entreprises.api.gouv.fr",
  krs: "https://api-krs.ms.gov.pl",
  abnLookup: "https://abr.business.gov.au/json",
} as const;

export const DEFAULT_TIMEOUT_MS = 8_000;

const present = (value: string | undefined): string | null => (value && value.trim() !== "" ? value.trim() : null);
const baseUrl = (value: string | undefined, fallback: string) => (present(value) ?? fallback).replace(/\/+$/, "");

export function registerConfigFrom(env: RegisterEnv): RegisterConfig {
  return {
    companiesHouse: { baseUrl: baseUrl(env.COMPANIES_HOUSE_API_URL, DEFAULT_BASE_URLS.companiesHouse), apiKey: present(env.COMPANIES_HOUSE_API_KEY) },
    hmrc: {
      baseUrl: baseUrl(env.HMRC_VAT_API_URL, DEFAULT_BASE_URLS.hmrc),
      clientId: present(env.HMRC_CLIENT_ID),
      clientSecret: present(env.HMRC_CLIENT_SECRET),
      bearerToken: present(env.HMRC_VAT_BEARER_TOKEN),
    },
    vies: { baseUrl: baseUrl(env.VIES_API_URL, DEFAULT_BASE_URLS.vies) },
    franceSearch: { baseUrl: baseUrl(env.FR_API_URL, DEFAULT_BASE_URLS.franceSearch) },
    krs: { baseUrl: baseUrl(env.KRS_API_URL, DEFAULT_BASE_URLS.krs) },
    abnLookup: { baseUrl: baseUrl(env.ABN_LOOKUP_API_URL, DEFAULT_BASE_URLS.abnLookup), guid: present(env.ABN_LOOKUP_GUID) },
  };
}

export function timeoutFrom(env: RegisterEnv): number {
  const parsed = Number(env.REGISTER_TIMEOUT_MS);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : DEFAULT_TIMEOUT_MS;
}
