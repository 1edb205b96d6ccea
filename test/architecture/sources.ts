import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** Every TypeScript source (not a declaration file) under `dir`, depth first. */
function listSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return listSources(path);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** What `check` finds in each source under `dir` of the repository at `root`, given its repository path and text. */
export function checkSources(root: string, dir: string, check: (file: string, text: string) => string[]): string[] {
  return listSources(join(root, dir)).flatMap((path) => check(relative(root, path).split("\\").join("/"), readFileSync(path, "utf8")));
}
