// Which exports of src/ nothing outside test/ imports, found with the TypeScript compiler: a program
// over src/ and the code that runs it from outside (scripts/, bench/, sdk/, the root configs), every
// import and re-export resolved to the declaration it names. An export only tests import is dead code
// in waiting (or a function that needs a caller); an export nothing imports should lose its `export`.
import { readdirSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import ts from "./typescript.mjs";

const CODE = /\.(tsx?|mts|mjs|js)$/;

function listCode(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return listCode(path);
    return CODE.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/**
 * A compiler host that reads the project's own files and hands the program an empty file for everything
 * under node_modules (dependencies' .d.ts, the default lib files of typescript/lib). Only which
 * declaration of src/ an import names matters here, and no file of node_modules imports src/: parsing
 * and binding the dependencies' declarations (and every file they reach) was most of the program's cost
 * and changed no answer (docs/testing.md, "unused-exports without the dependencies"). Module resolution
 * still finds the dependencies, so an import of one resolves to a module, just an empty one.
 */
export function projectOnlyHost(root: string, options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const dependencies = join(root, "node_modules") + sep;
  const libraries = dirname(ts.getDefaultLibFilePath(options)) + sep;
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) =>
    fileName.startsWith(dependencies) || fileName.startsWith(libraries)
      ? ts.createSourceFile(fileName, "", languageVersion)
      : getSourceFile(fileName, languageVersion, onError, shouldCreate);
  return host;
}

export interface UnusedExport {
  /** "src/db/x.ts: name" */
  name: string;
  /** Whether its own module uses it (then only the `export` is needless); otherwise nothing but tests can reach it. */
  usedInModule: boolean;
}

/** Exports of src/ modules that no module outside test/ imports, sorted by name. */
export function unusedExports(root: string): UnusedExport[] {
  const outside = ["scripts", "bench", "sdk"].flatMap((dir) => {
    try {
      return listCode(join(root, dir));
    } catch {
      return [];
    }
  });
  const rootFiles = readdirSync(root).filter((n) => /\.(ts|mts)$/.test(n) && !n.endsWith(".d.ts")).map((n) => join(root, n));
  const sources = listCode(join(root, "src"));
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    jsx: ts.JsxEmit.ReactJSX,
    jsxImportSource: "hono/jsx",
    allowJs: true,
    checkJs: false,
    resolveJsonModule: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  };
  const program = ts.createProgram({ rootNames: [...sources, ...outside, ...rootFiles, join(root, "worker-configuration.d.ts")], options, host: projectOnlyHost(root, options) });
  const checker = program.getTypeChecker();
  const original = (symbol: ts.Symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
  const used = new Set<ts.Symbol>();
  const wholeModules = new Set<ts.Symbol>();
  const rel = (file: string) => relative(root, file).split("\\").join("/");

  for (const file of program.getSourceFiles()) {
    const path = rel(file.fileName);
    if (path.startsWith("node_modules/") || path.startsWith("test/") || path.startsWith("..")) continue;
    const visit = (node: ts.Node): void => {
      // import { a, b as c } from "…"; import d from "…"; import * as ns from "…"
      if (ts.isImportSpecifier(node) || ts.isImportClause(node) || ts.isExportSpecifier(node)) {
        const at = ts.isImportClause(node) ? node.name : node.name;
        const symbol = at ? checker.getSymbolAtLocation(at) : undefined;
        // A re-export (`export { a } from "./x"`) is no use by itself; what imports it through here is.
        if (symbol && !(ts.isExportSpecifier(node) && node.parent.parent.moduleSpecifier)) used.add(original(symbol));
        if (symbol && ts.isExportSpecifier(node) && !node.parent.parent.moduleSpecifier) used.add(original(symbol));
      }
      if (ts.isNamespaceImport(node) || (ts.isExportDeclaration(node) && !node.exportClause && node.moduleSpecifier)) {
        const spec = ts.isNamespaceImport(node) ? node.parent.parent.moduleSpecifier : node.moduleSpecifier!;
        const mod = checker.getSymbolAtLocation(spec);
        if (mod) wholeModules.add(mod);
      }
      // import("./x").Name in a type, and dynamic import("./x")
      if (ts.isImportTypeNode(node) && node.qualifier) {
        const symbol = checker.getSymbolAtLocation(node.qualifier);
        if (symbol) used.add(original(symbol));
      }
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0]) {
        const mod = checker.getSymbolAtLocation(node.arguments[0]);
        if (mod) wholeModules.add(mod);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }

  const unused: UnusedExport[] = [];
  for (const path of sources) {
    const file = program.getSourceFile(path);
    const moduleSymbol = file && checker.getSymbolAtLocation(file);
    if (!file || !moduleSymbol || wholeModules.has(moduleSymbol)) continue;
    const candidates = checker.getExportsOfModule(moduleSymbol).filter((e) => !used.has(original(e)) && !used.has(e));
    if (candidates.length === 0) continue;
    // An identifier with the export's name that is not its own declaration and that names this very
    // export (the checker says so): a property of the same name on something else (`(await import("./x")).name`,
    // `typeof import("./x").name`) is no use of it; a name alone once let src/index.ts keep a dead export.
    const byName = new Map(candidates.map((e) => [e.name, e]));
    const local = new Set<string>();
    const visit = (node: ts.Node): void => {
      const candidate = ts.isIdentifier(node) ? byName.get(node.text) : undefined;
      if (candidate) {
        const parent = node.parent;
        const declares = (parent as ts.NamedDeclaration).name === node && !ts.isPropertyAccessExpression(parent);
        const symbol = declares || ts.isExportSpecifier(parent) ? undefined : checker.getSymbolAtLocation(node);
        if (symbol && (symbol === candidate || checker.getExportSymbolOfSymbol(symbol) === candidate || original(symbol) === original(candidate))) local.add(candidate.name);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
    for (const e of candidates) unused.push({ name: `${rel(path)}: ${e.name}`, usedInModule: local.has(e.name) });
  }
  return unused.sort((a, b) => a.name.localeCompare(b.name));
}
