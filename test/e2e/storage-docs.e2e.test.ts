import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// docs/storage-schema.md must name every table and column the migrations create, whether a column came
// with its table's CREATE TABLE or later with an ALTER TABLE … ADD; a table with a heading of its own
// names its columns inside that section (to the next heading of the same level or higher).

/** Every table of the migrations with its columns, those ALTER TABLE added included, in the order written. */
function tablesOf(sql: string): Map<string, string[]> {
  const tables = new Map<string, string[]>();
  for (const [, name, body] of sql.matchAll(/CREATE TABLE `([^`]+)` \(([\s\S]*?)\n\);/g)) {
    tables.set(name!, [...body!.matchAll(/^\s*`([^`]+)`/gm)].map(([, column]) => column!));
  }
  for (const [, name, column] of sql.matchAll(/ALTER TABLE `([^`]+)` ADD (?:COLUMN )?`([^`]+)`/gi)) {
    tables.set(name!, [...(tables.get(name!) ?? []), column!]);
  }
  return tables;
}

/** The doc's section headed by a heading that names `table`, or the whole doc when none does. */
function sectionOf(doc: string, table: string): string {
  const lines = doc.split("\n");
  const levelOf = (line: string) => /^(#+) /.exec(line)?.[1]!.length ?? 0;
  const start = lines.findIndex((line) => levelOf(line) > 0 && new RegExp(`\\b${table}\\b`).test(line));
  if (start < 0) return doc;
  let end = start + 1;
  while (end < lines.length && !(levelOf(lines[end]!) > 0 && levelOf(lines[end]!) <= levelOf(lines[start]!))) end++;
  return lines.slice(start, end).join("\n");
}

const missingColumns = (doc: string, table: string, columns: string[]) => columns.filter((column) => !new RegExp(`\\b${column}\\b`).test(sectionOf(doc, table)));

const sql = readdirSync("migrations")
  .filter((f) => f.endsWith(".sql"))
  .sort()
  .map((f) => readFileSync(`migrations/${f}`, "utf8"))
  .join("\n");
const doc = readFileSync("docs/storage-schema.md", "utf8");
const tables = tablesOf(sql);

describe("docs/storage-schema.md matches the migrations", () => {
  it("finds tables to check, and the columns ALTER TABLE added to them", () => {
    expect(tables.size).toBeGreaterThan(8);
    expect(tables.get("leads")).toContain("renewal_of");
    expect(tables.get("deals")).toContain("decline_reasons");
  });

  it("reads a column ALTER TABLE adds, and wants it in its table's own section", () => {
    const fixture = tablesOf("CREATE TABLE `t` (\n\t`a` text NOT NULL\n);\nALTER TABLE `t` ADD `b` text;--> statement-breakpoint\nALTER TABLE `t` ADD `c` integer;");
    expect(fixture).toEqual(new Map([["t", ["a", "b", "c"]]]));
    const text = "## t\n\n`a`, `b`\n\n## other\n\n`c`";
    expect(missingColumns(text, "t", fixture.get("t")!)).toEqual(["c"]);
  });

  it.each([...tables].map(([name, columns]) => [name, columns] as const))("documents table %s and its columns", (name, columns) => {
    expect(doc).toMatch(new RegExp(`#+ .*\\b${name}\\b|\`${name}\``));
    expect(missingColumns(doc, name, columns), `columns of ${name} missing from its part of the doc`).toEqual([]);
  });
});
