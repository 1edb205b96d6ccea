// Services read the time and the bindings from their `Deps` (src/services/deps.ts), never around it:
// the time is `deps.clock()` (so a test or a cron tick fixes it through Deps), the R2 bucket and the
// queues are `deps.env.DOCUMENTS`, `deps.env.WEBHOOK_QUEUE`, `deps.env.REGISTER_LOOKUPS` (so a caller
// passes deps and the request's data only). Read on the Node side by syntax tree, like
// service-deps.ts: in every module under src/services, a breach is
//   - an import of `nowIso` (lib/ids.ts: the global clock as an ISO string),
//   - a call of `Date.now()`, or `new Date()` with no argument (the global clock; `new Date(ms)` of a
//     known instant is fine, and elapsed time is measured with `performance.now()`, which is no date),
//   - a parameter of any function (exported or not, arrow, method) typed `R2Bucket` or `Queue`
//     (with type arguments, or in a union such as `Queue | undefined`).
import ts from "./typescript.mjs";
import { checkSources } from "./sources";

export const SERVICES = "src/services";

const BINDING_TYPES = new Set(["R2Bucket", "Queue"]);

/** Whether a parameter's declared type is a binding itself (`R2Bucket`, `Queue<M>`, `Queue | undefined`), not a type derived from one (`Parameters<R2Bucket["put"]>[1]`). */
function isBindingType(type: ts.TypeNode | undefined): boolean {
  if (!type) return false;
  if (ts.isParenthesizedTypeNode(type)) return isBindingType(type.type);
  if (ts.isUnionTypeNode(type) || ts.isIntersectionTypeNode(type)) return type.types.some(isBindingType);
  return ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && BINDING_TYPES.has(type.typeName.text);
}

const isDateIdentifier = (node: ts.Node) => ts.isIdentifier(node) && node.text === "Date";

/** ["src/services/x.ts:12 …", ...]: the places in one module that read the time or take a binding around Deps. */
export function clockAndBindingBreachesIn(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const report = (at: ts.Node, what: string) => {
    const { line } = source.getLineAndCharacterOfPosition(at.getStart(source));
    found.push(`${file}:${line + 1} ${what}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportSpecifier(node) && (node.propertyName ?? node.name).text === "nowIso") report(node, "imports nowIso");
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && isDateIdentifier(node.expression.expression) && node.expression.name.text === "now") {
      report(node, "calls Date.now()");
    }
    if (ts.isNewExpression(node) && isDateIdentifier(node.expression) && (node.arguments === undefined || node.arguments.length === 0)) report(node, "calls new Date()");
    if (ts.isParameter(node) && isBindingType(node.type)) report(node, `takes ${node.getText(source).replace(/\s+/g, " ").replace(/ = .*$/, "")}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every breach under src/services of the repository at `root`. */
export function collectClockAndBindingBreaches(root: string): string[] {
  return checkSources(root, SERVICES, clockAndBindingBreachesIn);
}

/** A made-up service that breaks the rule in each way it is meant to catch, beside code that keeps it. */
export const CLOCK_FIXTURE = {
  file: "src/services/made-up.ts",
  text: [
    'import { newId, nowIso } from "../lib/ids";',
    'import { nowIso as now } from "../lib/ids";',
    'import type { Deps } from "./deps";',
    "export async function a(deps: Deps, bucket: R2Bucket, key: string) {}",
    "export const b = (queue: Queue<{ id: string }>, ids: string[]) => ids;",
    "async function c(deps: Deps, lookups: Queue | undefined) {}",
    "export function d(deps: Deps) { return { at: new Date().toISOString(), ms: Date.now() }; }",
    "const e = (asOf = new Date) => asOf;",
    "export async function ok1(deps: Deps, value: Parameters<R2Bucket[\"put\"]>[1]) { return deps.env.DOCUMENTS.put(newId(\"doc\"), value); }",
    "export const ok2 = (deps: Deps) => new Date(deps.clock().getTime() - 60_000).toISOString();",
    "export function ok3() { const started = performance.now(); return performance.now() - started; }",
    "export const ok4 = ({ clock }: Deps) => clock().toISOString();",
  ].join("\n"),
};
