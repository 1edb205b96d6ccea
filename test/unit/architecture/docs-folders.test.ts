import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

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
