import { exports } from "cloudflare:workers";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { createAdminApi } from "../../src/api/admin";

/**
 * The API descriptions as integrators read them, and a judge of answers
 * against them: is the status declared for the operation, is the body the
 * declared media type, does it validate against the declared schema. One
 * validator (ajv, draft 2020-12 as OpenAPI 3.1 uses) for every test.
 */

export type ApiName = "partner" | "lender" | "operator";

export interface Operation {
  api: ApiName;
  /** Where the operation is served: the API's mount point (`/partner/v1`), or the root for an operation with its own server. */
  base: string;
  method: string;
  /** Path template as the document writes it (`/leads/{id}`). */
  template: string;
  /** The OpenAPI operation object. */
  operation: any;
}

export interface ApiDocument {
  api: ApiName;
  base: string;
  document: any;
}

const ROOT = "https://contract.test/";
const METHODS = ["get", "put", "post", "delete", "patch"];

/** The operator API serves no document; its router still describes it, so it is judged the same way. */
async function loadDocuments(): Promise<ApiDocument[]> {
  const served = async (api: ApiName, base: string): Promise<ApiDocument> => {
    const res = await exports.default.fetch(new Request(`http://api.test${base}/openapi.json`));
    if (res.status !== 200) throw new Error(`${base}/openapi.json answered ${res.status}`);
    return { api, base, document: await res.json() };
  };
  const operator = createAdminApi().getOpenAPI31Document({ openapi: "3.1.0", info: { title: "operator", version: "1.0.0" } });
  return [await served("partner", "/partner/v1"), await served("lender", "/v1"), { api: "operator", base: "/admin/v1", document: operator }];
}

interface Contract {
  documents: ApiDocument[];
  operations: (Operation & { pattern: RegExp; literalLength: number })[];
  ajv: Ajv2020;
  /** By schema object, and by API and schema text. */
  validators: Map<object | string, ValidateFunction>;
}

let loaded: Promise<Contract> | undefined;

export function contract(): Promise<Contract> {
  loaded ??= (async () => {
    const documents = await loadDocuments();
    // inlineRefs: false compiles a referenced schema once, as a function its referrers call; inlined (ajv's default), a
    // component without references of its own was compiled again into every schema that refers to it.
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, inlineRefs: false });
    addFormats(ajv);
    const operations: Contract["operations"] = [];
    for (const { api, base, document } of documents) {
      ajv.addSchema({ ...document, $id: `${ROOT}${api}.json` });
      for (const [template, item] of Object.entries<any>(document.paths ?? {})) {
        for (const method of METHODS) {
          if (!item[method]) continue;
          const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`);
          // An operation with its own server (`/health`, served at the host's root) is reached under that server's path.
          const server: string | undefined = item[method].servers?.[0]?.url;
          const at = server === undefined ? base : server.replace(/\/$/, "");
          operations.push({ api, base: at, method, template, operation: item[method], pattern, literalLength: template.replace(/\{[^}]+\}/g, "").length });
        }
      }
    }
    // A literal segment beats a parameter (`/leads/{id}` never shadows a fixed path).
    operations.sort((a, b) => b.literalLength - a.literalLength);
    return { documents, operations, ajv, validators: new Map() };
  })();
  return loaded;
}

/** The operation a request reaches, by method and path template; undefined for anything the documents do not describe. */
export async function findOperation(method: string, url: string): Promise<Operation | undefined> {
  const { operations } = await contract();
  const path = new URL(url, "http://api.test").pathname;
  return operations.find((o) => o.method === method.toLowerCase() && path.startsWith(`${o.base}/`) && o.pattern.test(path.slice(o.base.length)));
}

/** Local `#/components/…` references made absolute, so a schema lifted out of its document still resolves them. */
function rooted(schema: unknown, api: ApiName): unknown {
  if (Array.isArray(schema)) return schema.map((s) => rooted(s, api));
  if (!schema || typeof schema !== "object") return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [k, k === "$ref" && typeof v === "string" && v.startsWith("#/") ? `${ROOT}${api}.json${v}` : rooted(v, api)]),
  );
}

async function validatorFor(api: ApiName, schema: object): Promise<ValidateFunction> {
  const { ajv, validators } = await contract();
  let validate = validators.get(schema);
  if (!validate) {
    // Most operations' answers share a schema by reference (`{"$ref": "#/components/schemas/Problem"}`, one object per
    // response in the document): one validator per API and schema text, not per object.
    const text = `${api} ${JSON.stringify(schema)}`;
    validate = validators.get(text);
    if (!validate) {
      validate = ajv.compile(rooted(schema, api) as object);
      validators.set(text, validate);
    }
    validators.set(schema, validate);
  }
  return validate;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * What is wrong with an answer, judged against the operation the request
 * reached: an undeclared status, another media type than declared, a body
 * that fails the declared schema. Empty when the answer is as declared, or
 * when no document describes the request.
 */
export async function contractProblems(method: string, url: string, answer: Answer): Promise<string[]> {
  const found = await findOperation(method, url);
  if (!found) return [];
  const name = `${method.toUpperCase()} ${found.base}${found.template}`;
  const declared = found.operation.responses?.[String(answer.status)];
  if (!declared) {
    return [`${name} answered ${answer.status}, which its document does not declare (declared: ${Object.keys(found.operation.responses ?? {}).join(", ")})`];
  }
  const content: Record<string, { schema?: object }> | undefined = declared.content;
  if (!content) return answer.text === "" ? [] : [`${name} answered ${answer.status} with a body where the document declares none`];
  const mediaType = (answer.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  const media = content[mediaType];
  if (!media) return [`${name} answered ${answer.status} as "${mediaType}", not as declared (${Object.keys(content).join(", ")})`];
  if (!media.schema || !/json$/.test(mediaType)) return [];
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return [`${name} answered ${answer.status} as ${mediaType} with a body that is not JSON`];
  }
  const validate = await validatorFor(found.api, media.schema);
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${name} ${answer.status} body${e.instancePath || ""} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`);
}

/** What is wrong with a value against a schema of an API's document (`#/components/…` references resolve in it). */
export async function schemaProblems(api: ApiName, schema: object, value: unknown): Promise<string[]> {
  const validate = await validatorFor(api, schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`);
}
