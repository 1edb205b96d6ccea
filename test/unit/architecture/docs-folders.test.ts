import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { floorsSection } from "../../architecture/rules";

// docs/architecture.md draws the house; this keeps the drawing honest: every folder under src/ must be
// named in it as `path/` (relative to src/, brace groups such as `db/{deals,leads}/` expanded).

function foldersUnder(root: string, prefix = ""): string[] {
  return readdirSync(join(root, prefix)).flatMap((name) => {
    const path = prefix ? `${prefix}/${name}` : name;
    return statSync(join(root, path)).isDirectory() ? [path, ...foldersUnder(root, path)] : [];
  });
}

/** `api/{admin,lender}/x/` → `api/admin/x/ api/lender/x/` (repeatedly, so several groups expand too). */
function expandBraces(text: string): string {
  const group = /([\w./-]*)\{([^{}]*)\}([\w./-]*)/;
  let out = text;
  for (let match = group.exec(out); match; match = group.exec(out)) {
    const [whole, before, options, after] = match;
    out = out.replace(whole, options.split(",").map((o) => `${before}${o.trim()}${after}`).join(" "));
  }
  return out;
}

/** The folders of `folders` the text names as `folder/` (optionally after `src/`), not inside a longer path. */
function missingFolders(folders: string[], text: string): string[] {
  const expanded = expandBraces(text);
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return folders.filter((folder) => !new RegExp(`(^|[^\\w/.-]|src/)${escape(folder)}/`, "m").test(expanded));
}

describe("docs/architecture.md names every folder of src/", () => {
  it("every folder under src/ appears in the doc", () => {
    const folders = foldersUnder(join(process.cwd(), "src"));
    expect(folders.length).toBeGreaterThan(40);
    expect(missingFolders(folders, readFileSync(join(process.cwd(), "docs/architecture.md"), "utf8"))).toEqual([]);
  });

  it("catches a missing folder, reads brace groups, and does not take a longer path for a folder", () => {
    const doc = "The doors: `api/{partner,lender}/`, `web/portal/{access,mount}/` and src/jobs/. Not: `services/leads-old/`.";
    expect(missingFolders(["api/partner", "api/lender", "web/portal/access", "web/portal/mount", "jobs", "services/leads", "dev"], doc)).toEqual([
      "services/leads",
      "dev",
    ]);
  });
});

/**
 * The paths the text names that do not exist. A path is a backquoted `a/b.ts` or `a/b/` (brace groups
 * expanded) read from the repository's root or from src/ (docs name src/ folders without the prefix);
 * a bare file name (`router.ts`) must be some file of the repository; a relative link `[x](y.md)` is read
 * from docs/. Ignored outputs (`.gitignore`: `sdk/dist/`) are built, not kept, so they are let through.
 */
function missingPaths(text: string, root: string, fileNames: Set<string>, ignored: string[]): string[] {
  const missing: string[] = [];
  for (const [, token] of text.matchAll(/`([^`\n]+)`/g)) {
    if (!/^[\w.@{},/-]+$/.test(token!) || token!.startsWith("/")) continue;
    for (const path of expandBraces(token!).split(" ")) {
      if (!/\.(ts|tsx|mjs|mts|md|json|toml|sql)$|\/$/.test(path)) continue;
      if (path.startsWith(".")) continue;
      if (!path.slice(0, -1).includes("/")) {
        if (!path.endsWith("/") && !fileNames.has(path)) missing.push(path);
        continue;
      }
      if (ignored.some((prefix) => path.startsWith(prefix))) continue;
      if (![root, join(root, "src"), join(root, "docs")].some((base) => existsSync(join(base, path)))) missing.push(path);
    }
  }
  for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
    if (/^[a-z]+:/.test(target!) || target!.startsWith("/")) continue;
    if (!existsSync(join(root, "docs", target!))) missing.push(target!);
  }
  return missing;
}

/** Every file name under the folders a doc may name (node_modules and built outputs aside). */
function fileNamesUnder(root: string, folders: string[]): Set<string> {
  const names = new Set<string>(readdirSync(root));
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === "node_modules" || name === "dist") continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else names.add(basename(path));
    }
  };
  for (const folder of folders) if (existsSync(join(root, folder))) walk(join(root, folder));
  return names;
}

describe("docs/architecture.md names only paths that exist", () => {
  const root = process.cwd();
  const ignored = readFileSync(join(root, ".gitignore"), "utf8").split("\n").filter((line) => line.includes("/") && !line.startsWith("#"));

  it("every path, file name and link in the doc exists", () => {
    const names = fileNamesUnder(root, ["src", "test", "scripts", "bench", "docs", "sdk", "migrations", "examples"]);
    expect(missingPaths(readFileSync(join(root, "docs/architecture.md"), "utf8"), root, names, ignored)).toEqual([]);
  });

  it("catches a moved file, a moved folder, a renamed file name and a dead link, and reads src/ and brace groups", () => {
    const doc = "`lib/declared-responses.ts`, `api/declared-responses.ts`, `src/db/{client,batch}.ts`, `db/leadz/`, `db/leads/`, `nowhere.ts`, `app.ts`, `sdk/dist/`, [c](contract.md), [d](gone.md#x), [e](https://x.test/a.md).";
    expect(missingPaths(doc, root, new Set(["app.ts"]), ["sdk/dist/"])).toEqual(["lib/declared-responses.ts", "db/leadz/", "nowhere.ts", "gone.md"]);
  });
});

describe("docs/architecture.md's floors are the rules of test/architecture/rules.ts", () => {
  it("shows the floor table, every rule and every named exception exactly as rules.ts holds them", () => {
    const doc = readFileSync(join(process.cwd(), "docs/architecture.md"), "utf8");
    const section = /<!-- floors: begin[^>]*-->\n([\s\S]*?)\n<!-- floors: end -->/.exec(doc);
    expect(section, "docs/architecture.md holds the section between <!-- floors: begin --> and <!-- floors: end -->").not.toBeNull();
    expect(section![1]).toBe(floorsSection());
  });
});
