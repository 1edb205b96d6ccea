/**
 * The Worker vars and secrets the company-register and VAT adapters read
 * (src/registers/config.ts turns them into a configuration). All optional:
 * a keyed source without its secret answers `not_configured`, never an `internal_error`.
 */
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

