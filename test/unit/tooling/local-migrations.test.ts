import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error scripts/lib is plain JavaScript without declarations (the root tsconfig leaves scripts/ out)
import { applyMigrations, freshMigrationScript, migrationsUpToDate } from "../../../scripts/lib/local-migrations.mjs";

// A fresh local state is migrated by one `wrangler d1 execute --file` (scripts/lib/local-migrations.mjs), not by
// `wrangler d1 migrations apply`'s runtime per file: wrangler itself must then find every migration applied.
describe("migrating a fresh local state in one script", () => {
  const state = mkdtempSync(join(tmpdir(), "rfs-local-migrations-"));
  afterAll(() => rmSync(state, { recursive: true, force: true }));
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

  // Both local databases (DB and the sandbox's DB_SANDBOX), so two wrangler runs each time.
  it("leaves a state wrangler's `migrations apply` finds nothing to apply to, and records it", { timeout: 240_000 }, async () => {
    const output = await applyMigrations(state);
    expect(output.match(/\d+ commands executed successfully/g)).toHaveLength(2);
    expect(migrationsUpToDate(state)).toBe(true);
    // Without the record the state is no longer fresh (it has a database), so wrangler's own migration command runs on it.
    rmSync(join(state, "v3", "d1", "rfs-migrations-applied.json"));
    expect(migrationsUpToDate(state)).toBe(false);
    expect((await applyMigrations(state)).match(/No migrations to apply!/g)).toHaveLength(2);
    expect(migrationsUpToDate(state)).toBe(true);
    expect(existsSync(join(state, "rfs-fresh-migrations.sql"))).toBe(false);
    // wrangler's debug log went into the state (WRANGLER_LOG_PATH, scripts/lib/wrangler-child.mjs), not the home directory.
    expect(readdirSync(join(state, "wrangler-logs")).filter((name) => /^wrangler-.+\.log$/.test(name)).length).toBeGreaterThanOrEqual(2);
  });
});
