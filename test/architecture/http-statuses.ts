// Finds HTTP statuses named below the doors, on the Node side, by syntax tree (a comment or a string
// does not count). Statuses live only in src/lib/refusal-status.ts and the doors (api/, web/,
// middleware/); services, domain and db say what happened (a Refusal code) and never how it is answered.
//
// What counts as naming a status:
//   - a `status`/`statusCode`/`httpStatus` field set to a number (`{ status: 404 }`);
//   - a number from 100 to 599 given to a thrown value or to `new Refusal(...)` (as an argument, or
//     a field of an object argument): `throw new Refusal("not_found", "…", 404)`;
//   - a number from 100 to 599 returned as it is, or as a field of a returned object (`return 409`,
//     `return { code, status: 409 }`);
//   - a number from 100 to 599 compared with something named status (`res.status >= 400`,
//     `status === 410`): deciding by an HTTP status is the door's business.
// A number inside a call inside those positions (`message.slice(0, 500)`) is not a status.
import ts from "./typescript.mjs";
import { checkSources } from "./sources";

/** The floors where no HTTP status may appear. */
export const STATUS_FREE_FLOORS = ["src/services", "src/domain", "src/db"];

const STATUS_FIELDS = new Set(["status", "statusCode", "httpStatus"]);
const isStatusNumber = (node: ts.Node): node is ts.NumericLiteral => ts.isNumericLiteral(node) && Number(node.text) >= 100 && Number(node.text) <= 599 && Number.isInteger(Number(node.text));
const propertyName = (node: ts.PropertyAssignment) => (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) ? node.name.text : undefined);

/** The status numbers an expression hands over as it is: itself, or a field of an object literal. */
function handedOver(expression: ts.Expression | undefined): ts.NumericLiteral[] {
  if (!expression) return [];
  const node = ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression) || ts.isSatisfiesExpression(expression) ? expression.expression : expression;
  if (isStatusNumber(node)) return [node];
  if (ts.isObjectLiteralExpression(node))
    return node.properties.flatMap((p) => (ts.isPropertyAssignment(p) && isStatusNumber(p.initializer) ? [p.initializer] : []));
  return [];
}

/** ["src/services/x.ts:12 404 (throw)", ...] for one file's text. */
export function statusMentionsIn(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const seen = new Set<ts.Node>();
  const note = (node: ts.NumericLiteral, where: string) => {
    if (seen.has(node)) return;
    seen.add(node);
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    found.push(`${file}:${line + 1} ${node.text} (${where})`);
  };
  const namedStatus = (node: ts.Node) =>
    (ts.isIdentifier(node) && STATUS_FIELDS.has(node.text)) || (ts.isPropertyAccessExpression(node) && STATUS_FIELDS.has(node.name.text));
  const COMPARISONS = new Set<ts.SyntaxKind>([
    ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken,
    ts.SyntaxKind.LessThanToken, ts.SyntaxKind.LessThanEqualsToken, ts.SyntaxKind.GreaterThanToken, ts.SyntaxKind.GreaterThanEqualsToken,
  ]);
  const visit = (node: ts.Node): void => {
    const field = ts.isPropertyAssignment(node) ? propertyName(node) : undefined;
    if (field !== undefined && STATUS_FIELDS.has(field) && ts.isNumericLiteral((node as ts.PropertyAssignment).initializer)) note((node as ts.PropertyAssignment).initializer as ts.NumericLiteral, `${field} field`);
    if (ts.isThrowStatement(node)) {
      const thrown = node.expression;
      const args: readonly ts.Expression[] = ts.isNewExpression(thrown) || ts.isCallExpression(thrown) ? (thrown.arguments ?? []) : [thrown];
      for (const arg of args) for (const n of handedOver(arg)) note(n, "throw");
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && /Refusal$/.test(node.expression.text) && !ts.isThrowStatement(node.parent)) {
      for (const arg of node.arguments ?? []) for (const n of handedOver(arg)) note(n, "refusal");
    }
    if (ts.isReturnStatement(node)) for (const n of handedOver(node.expression)) note(n, "return");
    if (ts.isArrowFunction(node) && !ts.isBlock(node.body)) for (const n of handedOver(node.body)) note(n, "return");
    if (ts.isBinaryExpression(node) && COMPARISONS.has(node.operatorToken.kind)) {
      if (namedStatus(node.left) && isStatusNumber(node.right)) note(node.right, "comparison");
      if (namedStatus(node.right) && isStatusNumber(node.left)) note(node.left, "comparison");
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every mention under the status-free floors of the repository at `root`. */
export function collectStatusMentions(root: string): string[] {
  return STATUS_FREE_FLOORS.flatMap((floor) => checkSources(root, floor, statusMentionsIn));
}

/** A made-up service that breaks the rule in each way it is meant to catch, and names numbers that are no status. */
export const STATUS_FIXTURE = {
  file: "src/services/made-up.ts",
  text: [
    'import { Refusal } from "../lib/refusal";',
    "export function a(found: boolean) {",
    '  if (!found) throw new Refusal("not_found", "No such lead.", 404);',
    '  const refusal = new Refusal("conflict", "Taken.", { status: 409 });',
    "  return { code: \"gone\", status: 410 };",
    "}",
    "export const b = () => 503;",
    "export function c(text: string) {",
    "  const settled = { status: 202 };",
    "  return text.slice(0, 500);",
    "}",
    "export const d = (n: number) => (n > 400 ? 1 : 2);",
    "export const e = (res: { status: number }) => res.status >= 400 && res.status < 500;",
    "export const PRUNE = { batch: 500 };",
    "// throw new Refusal(\"x\", \"y\", 418) in a comment is no mention",
  ].join("\n"),
};
