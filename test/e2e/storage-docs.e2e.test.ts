import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// docs/storage-schema.md must name every table and column the migrations create.
const sql = readdirSync("migrations")
  .filter((f) => f.endsWith(".sql"))
  .map((f) => readFileSync(`migrations/${f}`, "utf8"))
  .join("\n");
const doc = readFileSync("docs/storage-schema.md", "utf8");

const tables = [...sql.matchAll(/CREATE TABLE `([^`]+)` \(([\s\S]*?)\n\);/g)].map(([, name, body]) => ({
  name,
  columns: [...body.matchAll(/^\s*`([^`]+)`/gm)].map(([, column]) => column),
}));

describe("docs/storage-schema.md matches the migrations", () => {
  it("finds tables to check", () => {
    expect(tables.length).toBeGreaterThan(8);
  });

  it.each(tables.map((t) => [t.name, t.columns] as const))("documents table %s and its columns", (name, columns) => {
    expect(doc).toMatch(new RegExp(`#+ .*\\b${name}\\b|\`${name}\``));
    const missing = columns.filter((column) => !new RegExp(`\\b${column}\\b`).test(doc));
    expect(missing, `columns of ${name} missing from the doc`).toEqual([]);
  });
});
