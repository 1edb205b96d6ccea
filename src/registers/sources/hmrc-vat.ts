import { z } from "zod";
import { parseBody, text } from "../answer";
import type { SourceContext } from "../context";
import { requestJson, type HttpFailure } from "../http";
import type { VatOutcome } from "../outcome";
import type { VatSource } from "../source";
import { normaliseVatNumber, vatChecked, vatFromFailure, vatUnanswered } from "../vat";

/**
 * GB VAT: HMRC's "Check a UK VAT number" API, version 2
 * (GET /organisations/vat/check-vat-number/lookup/{targetVrn}, application-restricted:
 * an OAuth 2.0 client-credentials token with scope read:vat). `HMRC_VAT_BEARER_TOKEN`
 * is for tests and local runs only: HMRC's tokens expire after about four hours,
 * so a fixed one stops working in production; deployments set the client id and secret.
 * 200 → valid with the registered name and address; 404 NOT_FOUND → not valid.
 */

const SOURCE = "hmrc_vat";

const lookupResponse = z.object({
  target: z.object({
    name: z.string(),
    vatNumber: z.string(),
    address: z
      .object({
        line1: z.string().nullish(),
        line2: z.string().nullish(),
        line3: z.string().nullish(),
        line4: z.string().nullish(),
        line5: z.string().nullish(),
        postcode: z.string().nullish(),
        countryCode: z.string().nullish(),
      })
      .nullish(),
  }),
  processingDate: z.string().nullish(),
});

const tokenResponse = z.object({ access_token: z.string().min(1), expires_in: z.number().positive().nullish(), token_type: z.string().nullish() });

/** Tokens live four hours; one per isolate is plenty. Keyed by API host and client id. */
const tokenCache = new Map<string, { token: string; expiresAt: number }>();
const TOKEN_MARGIN_MS = 60_000;

async function bearerToken(ctx: SourceContext): Promise<{ ok: true; token: string; cacheKey: string | null } | { ok: false; failure: HttpFailure } | null> {
  const { baseUrl, clientId, clientSecret, bearerToken: fixed } = ctx.config.hmrc;
  if (fixed) return { ok: true, token: fixed, cacheKey: null };
  if (!clientId || !clientSecret) return null;
  const cacheKey = `${baseUrl}|${clientId}`;
  const cached = tokenCache.get(cacheKey);
  if (cached && cached.expiresAt > ctx.now().getTime()) return { ok: true, token: cached.token, cacheKey };
  const result = await requestJson(ctx, {
    source: SOURCE,
    operation: "oauth_token",
    url: `${baseUrl}/oauth/token`,
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
    body: new URLSearchParams({ client_id: clientId, client_secret: clientSecret, grant_type: "client_credentials", scope: "read:vat" }).toString(),
  });
  const parsed = parseBody(result, tokenResponse, ctx, { source: SOURCE, operation: "oauth_token" });
  if (!parsed.ok) return parsed;
  const lifetimeMs = (parsed.value.expires_in ?? 3600) * 1000;
  tokenCache.set(cacheKey, { token: parsed.value.access_token, expiresAt: ctx.now().getTime() + lifetimeMs - TOKEN_MARGIN_MS });
  return { ok: true, token: parsed.value.access_token, cacheKey };
}

const addressLine = (address: z.infer<typeof lookupResponse>["target"]["address"]) =>
  address
    ? text([address.line1, address.line2, address.line3, address.line4, address.line5, address.postcode, address.countryCode].map((l) => text(l)).filter(Boolean).join(", "))
    : null;

/** UK VAT numbers: `GB`, or `XI` for Northern Ireland (the same VRN, checked the same way); 9 or 12 digits. */
const VRN = /^(\d{9}|\d{12})$/;
function ukVatNumber(input: string): { national: string; number: string } | null {
  const compact = input.toUpperCase().replace(/[^A-Z0-9]/g, "");
  if (compact.startsWith("XI")) return normaliseVatNumber(compact.slice(2), "XI", VRN);
  return normaliseVatNumber(compact, "GB", VRN);
}

async function check(input: string, ctx: SourceContext): Promise<VatOutcome> {
  const normalised = ukVatNumber(input);
  const { clientId, clientSecret, bearerToken: fixed } = ctx.config.hmrc;
  if (!fixed && !(clientId && clientSecret)) return vatUnanswered(normalised?.number ?? input, "not_configured");
  // A number that is not 9 or 12 digits is not a UK VAT number; HMRC would answer 400.
  if (!normalised) return vatChecked(input, false, {}, ctx);
  const token = await bearerToken(ctx);
  if (!token) return vatUnanswered(normalised.number, "not_configured");
  if (!token.ok) return vatFromFailure(normalised.number, token.failure);

  const result = await requestJson(ctx, {
    source: SOURCE,
    operation: "check_vat_number",
    url: `${ctx.config.hmrc.baseUrl}/organisations/vat/check-vat-number/lookup/${normalised.national}`,
    headers: { Accept: "application/vnd.hmrc.2.0+json", Authorization: `Bearer ${token.token}` },
  });
  if (!result.ok && result.failure.reason === "not_found") return vatChecked(normalised.number, false, {}, ctx);
  if (!result.ok && (result.failure.status === 401 || result.failure.status === 403) && token.cacheKey) {
    // A revoked or expired cached token: forget it, so the retry asks for a new one.
    tokenCache.delete(token.cacheKey);
    return vatFromFailure(normalised.number, { ...result.failure, retryable: true });
  }
  const parsed = parseBody(result, lookupResponse, ctx, { source: SOURCE, operation: "check_vat_number" });
  if (!parsed.ok) return vatFromFailure(normalised.number, parsed.failure);
  return vatChecked(normalised.number, true, { registered_name: text(parsed.value.target.name), registered_address: addressLine(parsed.value.target.address) }, ctx);
}

export const hmrcVat: VatSource = { source: SOURCE, check };
