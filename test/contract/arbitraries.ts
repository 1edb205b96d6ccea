import fc from "fast-check";

/**
 * fast-check arbitraries read from an OpenAPI 3.1 document: values that fit
 * a schema (mostly), and the mutations that make them misfit.
 */

type Schema = Record<string, any>;

export function resolver(document: any) {
  return function resolve(schema: Schema | undefined): Schema {
    if (!schema) return {};
    if (typeof schema.$ref === "string") return resolve(document.components.schemas[schema.$ref.split("/").pop() ?? ""]);
    return schema;
  };
}

const day = fc.date({ min: new Date("1940-01-01T00:00:00Z"), max: new Date("2030-12-31T00:00:00Z"), noInvalidDate: true });

function stringFor(schema: Schema): fc.Arbitrary<string> {
  switch (schema.format) {
    case "date-time":
      return day.map((d) => d.toISOString());
    case "date":
      return day.map((d) => d.toISOString().slice(0, 10));
    case "email":
      return fc.emailAddress();
    case "uri":
      return fc.oneof(fc.webUrl({ validSchemes: ["https"] }), fc.constant("https://hooks.example.com/rfs"));
  }
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 40, minLength + 40);
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength, maxLength }) },
    { weight: 1, arbitrary: fc.constantFrom("GB", "UK", "US", "CA", "ES", "FR", "x", "client_credentials").filter((s) => s.length >= minLength && s.length <= maxLength) },
  );
}

/** A value for `schema`; depth bounds recursion through nested objects and arrays. */
export function valueFor(schema: Schema | undefined, resolve: (s: Schema | undefined) => Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (depth > 6) return fc.constant(null);
  if (s.const !== undefined) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  const options = s.anyOf ?? s.oneOf;
  if (Array.isArray(options) && options.length > 0) return fc.oneof(...options.map((o: Schema) => valueFor(o, resolve, depth + 1)));
  if (Array.isArray(s.allOf) && s.allOf.length > 0) return valueFor(s.allOf[0], resolve, depth + 1);
  const types: string[] = [s.type ?? (s.properties ? "object" : "string")].flat();
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case "null":
          return fc.constant(null);
        case "boolean":
          return fc.boolean();
        case "integer":
          return fc.integer({ min: Math.ceil(s.minimum ?? s.exclusiveMinimum ?? -1000), max: Math.floor(s.maximum ?? s.exclusiveMaximum ?? 1_000_000) });
        case "number":
          return fc.double({ min: s.minimum ?? -1000, max: s.maximum ?? 1_000_000, noNaN: true, noDefaultInfinity: true });
        case "array":
          return fc.array(valueFor(s.items, resolve, depth + 1), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 3, (s.minItems ?? 0) + 3) });
        case "object": {
          const properties = Object.entries<Schema>(s.properties ?? {});
          const shape = Object.fromEntries(properties.map(([key, sub]) => [key, valueFor(sub, resolve, depth + 1)]));
          return fc.record(shape, { requiredKeys: (s.required ?? []).filter((k: string) => k in shape) });
        }
        default:
          return stringFor(s);
      }
    }),
  );
}

/** Every place in a JSON value a mutation can land: `[]` is the value itself. */
export function pathsOf(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  const here = [path];
  if (Array.isArray(value)) return [...here, ...value.flatMap((v, i) => pathsOf(v, [...path, i]))];
  if (value && typeof value === "object") return [...here, ...Object.entries(value).flatMap(([k, v]) => pathsOf(v, [...path, k]))];
  return here;
}

/** Returns a copy of `value` with `path` set to `replacement`, or removed when `replacement` is `REMOVE`. */
export const REMOVE = Symbol("remove");
export function setAt(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement === REMOVE ? undefined : replacement;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  const [head, ...rest] = path;
  if (rest.length === 0 && replacement === REMOVE) {
    if (Array.isArray(copy)) copy.splice(Number(head), 1);
    else delete copy[head];
  } else copy[head] = setAt(copy[head], rest, replacement);
  return copy;
}

/** Strings that break naive handling: empty, huge, controls, unpaired surrogates, markup and SQL-ish text. */
export const hostileString = fc.oneof(
  fc.constant(""),
  fc.constant(" "),
  fc.nat({ max: 200_000 }).map((n) => "a".repeat(n)),
  fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 20 }),
  fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 4 }),
  fc.constantFrom("\u0000", "a\ud800b", "\udfff", "'; DROP TABLE leads; --", "<script>alert(1)</script>", "../../etc/passwd", "%00", "\u202e\u2066", "NaN", "1e309"),
  fc.string({ unit: "binary", maxLength: 50 }),
);

/** A value of some other JSON type than the one expected, or a hostile string. */
export const wrongValue = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constant(1e308),
  fc.constant(-1),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
  hostileString,
);

/** The schema a path of a value falls under (through properties, items and the first fitting option); undefined past the schema's edge. */
export function schemaAt(schema: Schema | undefined, path: (string | number)[], resolve: (s: Schema | undefined) => Schema): Schema | undefined {
  let at: Schema | undefined = resolve(schema);
  for (const key of path) {
    if (!at) return undefined;
    const options: Schema[] = (at.anyOf ?? at.oneOf ?? [at]).map(resolve);
    const next = typeof key === "number" ? options.find((o) => o.items)?.items : options.find((o) => o.properties?.[key])?.properties?.[key];
    at = next ? resolve(next) : undefined;
  }
  return at;
}

/** Values just past a schema's bounds (length, range, item count), or of another type where it has none. */
export function pastBounds(schema: Schema | undefined): fc.Arbitrary<unknown> {
  const options: Schema[] = schema ? [schema, ...(schema.anyOf ?? schema.oneOf ?? [])] : [];
  const values: unknown[] = [];
  for (const s of options) {
    if (typeof s.maxLength === "number") values.push("a".repeat(s.maxLength + 1));
    if (typeof s.minLength === "number" && s.minLength > 0) values.push("a".repeat(s.minLength - 1));
    if (typeof s.maximum === "number") values.push(s.maximum + 1);
    if (typeof s.minimum === "number") values.push(s.minimum - 1);
    if (typeof s.maxItems === "number") values.push(Array.from({ length: s.maxItems + 1 }, () => ({})));
    if (typeof s.minItems === "number" && s.minItems > 0) values.push([]);
    if ([s.type].flat().includes("integer")) values.push(1.5);
  }
  return values.length > 0 ? fc.constantFrom(...values) : wrongValue;
}
