import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
// @ts-expect-error scripts/lib is plain JavaScript without declarations (the root tsconfig leaves scripts/ out)
import { freshMigrationScript } from "../../../scripts/lib/local-migrations.mjs";

// A fresh local state is migrated by one `wrangler d1 execute --file` (scripts/lib/local-migrations.mjs), not by
// `wrangler d1 migrations apply`'s runtime per file: wrangler itself must then find every migration applied,
// which test/e2e/dev-log-tokens.e2e.test.ts checks on the state `npm run dev` migrated from nothing.
describe("migrating a fresh local state in one script", () => {
  const migrations = readdirSync("migrations").filter((name) => name.endsWith(".sql")).sort();

  it("holds each migration file, in wrangler's order, each followed by the row wrangler records for it", () => {
    const script = freshMigrationScript();
    expect(script.startsWith("CREATE TABLE IF NOT EXISTS d1_migrations(")).toBe(true);
    let from = 0;
    for (const name of migrations) {
      const at = script.indexOf(`\nINSERT INTO d1_migrations (name) values ('${name}');`, from);
      expect(at, name).toBeGreaterThan(from);
      from = at + 1;
    }
  });
});
