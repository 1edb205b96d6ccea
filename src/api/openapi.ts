import { z } from "@hono/zod-openapi";
import type { ApiRefusalCode } from "../lib/refusal";
import { API_CATALOGUE } from "../lib/refusal-status";

export const ProblemSchema = z
  .object({
    type: z.string().openapi({ example: "https://api.example.com/docs#error-invalid_request" }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    message: z.string().openapi({ description: "For humans; wording may change. Branch on `error.code`." }),
    error: z.object({
      code: z.enum(Object.keys(API_CATALOGUE) as [ApiRefusalCode, ...ApiRefusalCode[]]),
      message: z.string(),
      field: z.string().optional().openapi({ description: "Dotted path of the offending field, where there is one." }),
    }),
    errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
    missing: z.array(z.string()).optional(),
    existing_lead_id: z.string().optional().openapi({ description: "On 409 `duplicate_lead`: the caller's own open lead for the same company." }),
    request_id: z.string().openapi({ description: "Also sent as the `X-Request-Id` header." }),
  })
  .openapi("Problem");

const problemContent = { "application/problem+json": { schema: ProblemSchema } };

/** Where an error response keeps its codes; a symbol, so the served document never shows it. */
const ERROR_CODES_OF = Symbol("error codes");

/** The error responses a route can give, one per status, each naming its codes. */
export function errorResponses(...codes: ApiRefusalCode[]) {
  const byStatus = new Map<number, ApiRefusalCode[]>();
  for (const code of new Set<ApiRefusalCode>([...codes, "internal_error"])) {
    const status = API_CATALOGUE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [status, { description: list.join(", "), content: problemContent, [ERROR_CODES_OF]: list }]),
  );
}

/** The codes of a response made by `errorResponses`; undefined for any other response. */
export const errorCodesOf = (response: object): ApiRefusalCode[] | undefined => (response as { [ERROR_CODES_OF]?: ApiRefusalCode[] })[ERROR_CODES_OF];

/** Errors every authenticated route can answer with. */
export const AUTHENTICATED_ERRORS: ApiRefusalCode[] = ["unauthorized", "environment_mismatch", "wrong_key_type", "rate_limited", "service_unavailable"];

export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** A required JSON request body, so a missing or non-JSON body is refused, not read as `{}`. */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { "application/json": { schema } },
});

type SecurityRequirement = Record<string, string[]>;

export const security: Record<"partner" | "lender", SecurityRequirement[]> = {
  // The key first: try-it in the reference starts with the first requirement, and a key is what a newcomer holds.
  partner: [{ apiKey: [] }, { bearerAuth: [] }],
  lender: [{ apiKey: [] }],
};
