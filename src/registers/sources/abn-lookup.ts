import { z } from "zod";
import type { RegisterQuery } from "../../domain/registers/types";
import { available, fromFailure, parseBody, text } from "../answer";
import type { SourceContext } from "../context";
import { requestJson } from "../http";
import { unavailable, type RegisterOutcome } from "../outcome";
import type { RegisterSource } from "../source";
import { abnOf } from "../../domain/registers/identity";

/**
 * AU: the Australian Business Register's ABN Lookup JSON service
 * (GET /json/AbnDetails.aspx?abn=..&guid=..&callback=..; a registered GUID).
 * It always answers 200 with JSONP, `callback({...})`; a problem shows in
 * `Message` (an unknown ABN, an unrecognised GUID). The ABN record holds the
 * entity name and type, ABN and GST status, state and postcode, ACN and
 * business names; it holds no incorporation date (the ABN's status date is
 * not one), so `incorporated_on` stays null.
 */

const SOURCE = "abn_lookup";
const CALLBACK = "abnCallback";

const details = z.object({
  Abn: z.string(),
  AbnStatus: z.string().nullish(),
  AbnStatusEffectiveFrom: z.string().nullish(),
  Acn: z.string().nullish(),
  AddressDate: z.string().nullish(),
  AddressPostcode: z.string().nullish(),
  AddressState: z.string().nullish(),
  BusinessName: z.array(z.string()).nullish(),
  EntityName: z.string().nullish(),
  EntityTypeCode: z.string().nullish(),
  EntityTypeName: z.string().nullish(),
  Gst: z.string().nullish(),
  Message: z.string().nullish(),
});

/** `abnCallback({...})` → the object inside; anything else is malformed. */
export function unwrapJsonp(body: string): unknown {
  const match = /^\s*[A-Za-z_$][\w$]*\(([\s\S]*)\)\s*;?\s*$/.exec(body);
  if (!match) throw new Error("not a JSONP body");
  return JSON.parse(match[1]);
}


async function lookup(query: RegisterQuery, ctx: SourceContext): Promise<RegisterOutcome> {
  const guid = ctx.config.abnLookup.guid;
  if (!guid) return unavailable("not_configured");
  const abn = abnOf(query.company_number);
  if (!abn) return unavailable("not_found");
  const params = new URLSearchParams({ abn, callback: CALLBACK, guid });
  const result = await requestJson(ctx, {
    source: SOURCE,
    operation: "abn_details",
    url: `${ctx.config.abnLookup.baseUrl}/AbnDetails.aspx?${params}`,
    parse: unwrapJsonp,
  });
  const parsed = parseBody(result, details, ctx, { source: SOURCE, operation: "abn_details" });
  if (!parsed.ok) return fromFailure(parsed.failure);
  const record = parsed.value;
  const message = text(record.Message);
  if (message && /guid/i.test(message)) {
    // Our credential was refused: an operator has to act, asking again will not help.
    ctx.log({ source: SOURCE, operation: "abn_details", outcome: "guid_refused", status: 200 });
    return unavailable("unavailable");
  }
  if (message || text(record.Abn) === null) return unavailable("not_found");

  const gstFrom = text(record.Gst);
  return available(
    {
      registered_name: text(record.EntityName),
      company_status: text(record.AbnStatus)?.toLowerCase() ?? null,
      company_type: text(record.EntityTypeName),
      registered_office: {
        line1: null,
        line2: null,
        locality: null,
        region: text(record.AddressState),
        postal_code: text(record.AddressPostcode),
        country: "AU",
      },
      identifiers: { abn: text(record.Abn)! },
      sections: {
        abn: { status: "available", data: { status: text(record.AbnStatus), status_effective_from: text(record.AbnStatusEffectiveFrom), entity_type_code: text(record.EntityTypeCode), acn: text(record.Acn) } },
        gst: { status: "available", data: { registered: gstFrom !== null, effective_from: gstFrom } },
        business_names: { status: "available", data: (record.BusinessName ?? []).map((n) => text(n)).filter(Boolean) },
      },
    },
    ctx,
  );
}

export const abnLookup: RegisterSource = { source: SOURCE, lookup };
