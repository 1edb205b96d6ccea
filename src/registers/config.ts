/**
 * Where each register lives and the credentials it needs, read from Worker
 * vars and secrets. The public base URLs have defaults; the keyed sources
 * (Companies House, HMRC, ABN Lookup) have none, so an unconfigured
 * deployment answers `not_configured` instead of calling anything.
 */

import type { RegisterEnv } from "../lib/register-env";

export type { RegisterEnv };

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
