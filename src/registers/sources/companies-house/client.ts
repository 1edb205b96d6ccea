import type { z } from "zod";
import { parseBody } from "../../answer";
import type { SourceContext } from "../../context";
import { basicAuth, requestJson, type HttpFailure } from "../../http";

export const SOURCE = "companies_house";

/** A path the register handed us in a `links` object; anything else is refused so a link can never leave the API host. */
const SAFE_PATH = /^\/[A-Za-z0-9_\-/]+$/;
export const isSafePath = (path: string | null | undefined): path is string => !!path && SAFE_PATH.test(path) && !path.includes("//");

export type ChResult<T> = { ok: true; value: T } | { ok: false; failure: HttpFailure };

/** GET one Companies House resource, authenticated with the API key, checked against its schema. */
export async function getResource<T extends z.ZodType>(
  ctx: SourceContext,
  apiKey: string,
  path: string,
  operation: string,
  schema: T,
): Promise<ChResult<z.infer<T>>> {
  const result = await requestJson(ctx, {
    source: SOURCE,
    operation,
    url: `${ctx.config.companiesHouse.baseUrl}${path}`,
    headers: { Authorization: basicAuth(apiKey), Accept: "application/json" },
  });
  return parseBody(result, schema, ctx, { source: SOURCE, operation });
}
