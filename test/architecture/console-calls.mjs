// Finds every use of the global `console` in src/ on the Node side, by syntax tree (so a comment
// or a string mentioning console.log does not count), for the rule that only the logger writes.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "./typescript.mjs";

function listSources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return listSources(path);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** ["src/x.ts:12 console.error", ...] */
export function collectConsoleCalls(root, sourceDir = "src") {
  const found = [];
  for (const path of listSources(join(root, sourceDir))) {
    const file = relative(root, path).split("\\").join("/");
    const text = readFileSync(path, "utf8");
    // Only a file that spells `console`, or writes an escape that could spell it (`\u0063onsole`), can use it:
    // the other 380-odd files are not parsed (they cost 2-4 s of the main process on every run, both projects).
    if (!text.includes("console") && !text.includes("\\u")) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "console") {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        found.push(`${file}:${line + 1} console.${node.name.text}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}
