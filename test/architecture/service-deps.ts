// Services take the one `Deps` (src/services/deps.ts) first, never a database client, a raw D1
// binding or the Worker's bindings by position. Read on the Node side by syntax tree, like
// http-statuses.ts: every exported function of src/services (a declaration, or a const holding an
// arrow function or function expression) whose first parameter
//   - is typed `Database`, `D1Database` or `Bindings`, or a type built on them (`Pick<Bindings, "DB">`,
//     `Pick<Bindings, "DB"> & LinkEnv`), or a local alias whose name ends in `Env` (`DispatchEnv`), or
//   - is named `db`, `d1` or `env` (whatever its type says)
// is a breach. A function that takes `deps: Deps` (or a `ViewContext`, which is a Deps with links) passes.
import ts from "./typescript.mjs";
import { checkSources } from "./sources";

export const SERVICES = "src/services";

const BARE_NAMES = new Set(["db", "d1", "env"]);
const BARE_TYPES = /\b(Database|D1Database|Bindings)\b|^\w*Env\b/;

const isExported = (node: ts.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** ["src/services/x.ts:12 name(db: Database)", ...]: the exported functions of one file whose first parameter is a raw dependency. */
export function positionalDepsIn(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const check = (name: string, fn: ts.SignatureDeclarationBase, at: ts.Node) => {
    const first = fn.parameters[0];
    if (!first) return;
    const paramName = ts.isIdentifier(first.name) ? first.name.text : "";
    const typeText = first.type ? first.type.getText(source).replace(/\s+/g, " ") : "";
    if (BARE_NAMES.has(paramName) || (typeText !== "" && BARE_TYPES.test(typeText))) {
      const { line } = source.getLineAndCharacterOfPosition(at.getStart());
      found.push(`${file}:${line + 1} ${name}(${first.getText(source).replace(/\s+/g, " ").replace(/ = .*$/, "")})`);
    }
  };
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name && isExported(statement)) check(statement.name.text, statement, statement);
    if (ts.isVariableStatement(statement) && isExported(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        let init = declaration.initializer;
        // A curried export (`panelMatcher = (deps) => (facts) => …`) is judged by its outer function.
        while (init && (ts.isParenthesizedExpression(init) || ts.isAsExpression(init) || ts.isSatisfiesExpression(init))) init = init.expression;
        if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) && ts.isIdentifier(declaration.name)) check(declaration.name.text, init, declaration);
      }
    }
  }
  return found;
}

/** Every breach under src/services of the repository at `root`. */
export function collectPositionalDeps(root: string): string[] {
  return checkSources(root, SERVICES, positionalDepsIn);
}

/** A made-up service that breaks the rule in each way it is meant to catch, beside functions that keep it. */
export const DEPS_FIXTURE = {
  file: "src/services/made-up.ts",
  text: [
    'import type { Database } from "../db/client";',
    'import type { Bindings } from "../lib/env";',
    'import type { Deps } from "./deps";',
    "type SweepEnv = Pick<Bindings, \"DB\">;",
    "export async function a(db: Database, id: string) {}",
    "export function b(d1: D1Database) {}",
    "export const c = async (env: Pick<Bindings, \"DB\" | \"DOCUMENTS\">, now: Date) => {};",
    "export const d = (store: SweepEnv) => store;",
    "export function e(db, id) {}",
    "export async function f(client: Database & { extra: true }) {}",
    "export async function ok1(deps: Deps, id: string) {}",
    "export const ok2 = (deps: Deps) => (facts: string) => facts;",
    "async function ok3(db: Database) {}",
    "export function ok4(lead: { id: string }, market: string) {}",
    "export const ok5 = 5;",
  ].join("\n"),
};
