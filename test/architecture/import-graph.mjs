// Reads the imports of every module under src/ on the Node side (workerd tests cannot list
// files), resolving relative specifiers to repository paths. Type-only imports count: a type
// pulled from a floor above still ties the lower floor to it.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, posix, relative } from "node:path";
import ts from "./typescript.mjs";

const SOURCE_EXTENSIONS = [".ts", ".tsx"];

function listSources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return listSources(path);
    return SOURCE_EXTENSIONS.some((ext) => name.endsWith(ext)) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

function resolveRelative(root, fromFile, specifier, files) {
  const base = posix.normalize(posix.join(posix.dirname(fromFile), specifier));
  const candidates = [base, ...SOURCE_EXTENSIONS.map((ext) => base + ext), ...SOURCE_EXTENSIONS.map((ext) => `${base}/index${ext}`)];
  return candidates.find((candidate) => files.has(candidate)) ?? base;
}

/** { "src/lib/env.ts": ["src/domain/identity/caller.ts", "hono", ...], ... } */
export function collectImportGraph(root, sourceDir = "src") {
  const paths = listSources(join(root, sourceDir)).map((path) => relative(root, path).split("\\").join("/"));
  const files = new Set(paths);
  const graph = {};
  for (const file of paths) {
    const text = readFileSync(join(root, file), "utf8");
    const { importedFiles } = ts.preProcessFile(text, true, true);
    graph[file] = [...new Set(importedFiles.map(({ fileName }) =>
      fileName.startsWith(".") ? resolveRelative(root, file, fileName, files) : fileName,
    ))].sort();
  }
  return graph;
}
