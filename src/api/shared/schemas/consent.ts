import { z } from "@hono/zod-openapi";
import { CONSENT_CHANNELS } from "../../../domain/leads/consent";
import { Timestamp } from "./common";

export const ConsentReceipt = z
  .object({
    text_version: z.string().openapi({ example: "2026-11", description: "The consent text version agreed to (`GET /partner/v1/consent-texts/{version}`)." }),
    text_sha256: z.string().openapi({ description: "sha256 (hex) of the exact text in `locale` of that version, as the consent-texts endpoint serves it." }),
    locale: z.string().openapi({ example: "en-GB" }),
    agreed_at: Timestamp,
    channel: z.enum(CONSENT_CHANNELS as [string, ...string[]]).openapi({ description: "`application_link`: the business agreed itself; `partner_api`, `portal`: the partner declared it." }),
    soft_credit_search: z.boolean().openapi({ description: "The business's own, separate choice of a soft credit search." }),
    disclosure_version: z
      .string()
      .nullable()
      .openapi({ example: "2026-11-d1", description: "The commission disclosure version shown with the text (`GET /partner/v1/consent-texts/{version}`, `kind: commission_disclosure`); null where none was shown (the partner API)." }),
    disclosure_locale: z
      .string()
      .nullable()
      .openapi({ example: "en-GB", description: "The locale of the disclosure text shown, the page's as the text's. Null where none was shown, and on a receipt written before it was recorded (that disclosure was the English text)." }),
    disclosure_sha256: z.string().nullable().openapi({ description: "sha256 (hex) of that disclosure text exactly as the consent-texts endpoint serves it (with `{name}` where the page put the introducer's name); null as `disclosure_locale`." }),
  })
  .openapi("ConsentReceipt");

/** The consent as a lead and a deal carry it: what the partner declared, and the receipt the service wrote. */
export const ConsentView = z
  .object({
    obtained: z.boolean().nullable(),
    obtained_at: z.string().nullable(),
    soft_credit_search: z.boolean().nullable(),
    text_version: z.string().nullable(),
    withdrawn_at: Timestamp.nullable().openapi({ description: "When the business withdrew its consent before submission; submit answers 422 `consent_required` while set." }),
    receipt: ConsentReceipt.nullable().openapi({
      description:
        "What the service can prove: null until consent is obtained on a published text version. Identical on the partner's lead, the lender's deal and the client hub. [Application link](/docs/guides/application-link#consent-receipt).",
    }),
  })
  .openapi("Consent");

export const ConsentText = z
  .object({
    kind: z
      .enum(["consent_text", "commission_disclosure"])
      .openapi({ description: "`consent_text`: a receipt's `text_version`; `commission_disclosure`: its `disclosure_version` (each text has `{name}` where the page puts the introducer's name)." }),
    version: z.string().openapi({ example: "2026-11" }),
    published_at: Timestamp,
    texts: z.array(
      z.object({
        locale: z.string().openapi({ example: "en-GB" }),
        text: z.string().openapi({ description: "The exact text; paragraphs are separated by a blank line." }),
        sha256: z.string().openapi({ description: "sha256 (hex) of `text` in UTF-8: a receipt's `text_sha256`." }),
      }),
    ),
  })
  .openapi("ConsentText");

export const ConsentTextVersionParam = z.object({ version: z.string().max(64).openapi({ param: { name: "version", in: "path" }, example: "2026-11" }) });
