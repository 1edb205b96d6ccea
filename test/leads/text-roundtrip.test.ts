import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { contract } from "../helpers/contract";
import { fuzzParameters, fuzzTimeout } from "../helpers/fuzz-settings";
import { partnerWithKeys } from "../helpers/seed";
import { hasForbiddenTextCharacter } from "../../src/lib/unicode";

/**
 * Stored equals acknowledged: a text a lead accepts is answered, stored and
 * read back exactly (after the documented trim), and a text that is not valid
 * Unicode (an unpaired surrogate) is refused with 400 naming the field, so
 * nothing is ever acknowledged that differs from what is kept.
 */

interface TextField {
  /** Dotted path in the request body and in the lead (`significant_persons.0.full_name`). */
  path: string[];
  maxLength: number;
}

/** Free-text fields of the lead, read from the creation body's schema: strings with a length bound and no enum, format or pattern. */
async function leadTextFields(): Promise<TextField[]> {
  const { documents } = await contract();
  const { document } = documents.find((d) => d.api === "partner")!;
  const resolve = (schema: any): any => (schema?.$ref ? resolve(document.components.schemas[schema.$ref.split("/").pop()]) : schema);
  const fields: TextField[] = [];
  const walk = (raw: any, path: string[]) => {
    const schema = resolve(raw);
    for (const option of schema.anyOf ?? schema.oneOf ?? []) walk(option, path);
    const types = [schema.type].flat();
    if (types.includes("object")) for (const [key, sub] of Object.entries<any>(schema.properties ?? {})) walk(sub, [...path, key]);
    if (types.includes("array") && schema.items) walk(schema.items, [...path, "0"]);
    if (types.includes("string") && schema.maxLength && !schema.enum && !schema.format && !schema.pattern) fields.push({ path, maxLength: schema.maxLength });
  };
  walk(document.components.schemas.LeadCreate, []);
  return fields;
}

/** A valid person, so a field inside significant_persons is tried on its own. */
const PERSON = { full_name: "Ada Lovelace", date_of_birth: "1984-03-09", residential_address: { line1: "1 High Street", postal_code: "SW1A 1AA" } };

function bodyWith(path: string[], value: string): Record<string, unknown> {
  const body: Record<string, unknown> = path[0] === "significant_persons" ? { significant_persons: [structuredClone(PERSON)] } : {};
  let at: any = body;
  path.forEach((key, i) => {
    if (i === path.length - 1) at[key] = value;
    else at = at[key] ??= {};
  });
  return body;
}

const read = (value: any, path: string[]) => path.reduce((at, key) => at?.[key], value);

/** Text with every hazard: any code point, controls, and surrogates that may or may not pair up. */
const unit = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.constantFrom(" ", "\u00a0", "\u2028", "\ufeff", "'", '"', "\\", "%", "\u0000") },
);
const texts = fc.oneof(fc.string({ unit, maxLength: 40 }), fc.string({ unit, minLength: 190, maxLength: 260 }));

const isValidUnicode = (text: string) => !/\p{Surrogate}/u.test(text);

type Outcome = { accepted: true; stored: string } | { accepted: false };

/** Every text field of the lead is plain text on one line: control, invisible and bidi characters are refused (issue 21 item 11, issue 39 item 8). */

function expectedOutcome(field: TextField, value: string): Outcome {
  const trimmed = value.trim();
  if (!isValidUnicode(value) || trimmed.length === 0 || trimmed.length > field.maxLength) return { accepted: false };
  if (hasForbiddenTextCharacter(trimmed)) return { accepted: false };
  return { accepted: true, stored: trimmed };
}

describe("stored equals acknowledged, for every text field of the lead", () => {
  const parameters = fuzzParameters(40);

  it("finds the lead's text fields in its schema", async () => {
    const paths = (await leadTextFields()).map((f) => f.path.join("."));
    expect(paths).toEqual(expect.arrayContaining(["partner_reference", "business.name", "contact.first_name", "significant_persons.0.full_name", "significant_persons.0.residential_address.line1"]));
  });

  it("round-trips create → GET and PATCH → GET, or refuses with 400 naming the field", async () => {
    const fields = await leadTextFields();
    let key = "";
    let used = 0;
    // The per-key limit is 120 a minute; a fresh key every 25 runs keeps it out of the answers.
    const keyForRun = async () => {
      if (used++ % 25 === 0) key = (await partnerWithKeys()).sandbox.key;
      return key;
    };

    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...fields), texts, texts, async (field, created, patched) => {
        const name = field.path.join(".");
        const key = await keyForRun();
        const post = await call("POST", "/partner/v1/leads", { key, body: { country: "GB", ...bodyWith(field.path, created) } });
        const onCreate = expectedOutcome(field, created);
        if (!onCreate.accepted) {
          expect(post.status, post.text).toBe(400);
          expect(post.body.error.field).toBe(name);
          return;
        }
        expect(post.status, post.text).toBe(201);
        expect(read(post.body, field.path)).toBe(onCreate.stored);
        const id = post.body.id;
        expect(read((await call("GET", `/partner/v1/leads/${id}`, { key })).body, field.path)).toBe(onCreate.stored);

        const patch = await call("PATCH", `/partner/v1/leads/${id}`, { key, body: bodyWith(field.path, patched) });
        const onPatch = expectedOutcome(field, patched);
        const kept = onPatch.accepted ? onPatch.stored : onCreate.stored;
        if (onPatch.accepted) {
          expect(patch.status, patch.text).toBe(200);
          expect(read(patch.body, field.path)).toBe(kept);
        } else {
          expect(patch.status, patch.text).toBe(400);
          expect(patch.body.error.field).toBe(name);
        }
        expect(read((await call("GET", `/partner/v1/leads/${id}`, { key })).body, field.path)).toBe(kept);
      }),
      parameters,
    );
  }, fuzzTimeout(parameters.numRuns, 400));

  it("refuses an unpaired surrogate by name, in a key as in a value", async () => {
    const { sandbox } = await partnerWithKeys();
    const raw = (json: string) => call("POST", "/partner/v1/leads", { key: sandbox.key, rawBody: json, contentType: "application/json" });
    const inValue = await raw('{"country":"GB","partner_reference":"A\\ud800B"}');
    expect(inValue.status).toBe(400);
    expect(inValue.body.error).toMatchObject({ code: "invalid_request", field: "partner_reference" });
    const inNested = await raw('{"country":"GB","business":{"name":"\\udfffx"}}');
    expect(inNested.body.error).toMatchObject({ code: "invalid_request", field: "business.name" });
    // A pair written as escapes is one valid character and is kept.
    const paired = await raw('{"country":"GB","partner_reference":"A\\ud83d\\ude00B"}');
    expect(paired.status).toBe(201);
    expect(paired.body.partner_reference).toBe("A\u{1F600}B");
    expect((await call("GET", `/partner/v1/leads/${paired.body.id}`, { key: sandbox.key })).body.partner_reference).toBe("A\u{1F600}B");
  });
});
