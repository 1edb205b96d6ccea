import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
// @ts-expect-error scripts/lib is plain JavaScript without declarations (the root tsconfig leaves scripts/ out)
import { migrationsUpToDate, recordMigrationsApplied } from "../../../scripts/lib/local-migrations.mjs";

// applyMigrations (scripts/lib/local-migrations.mjs) skips `wrangler d1 migrations apply` only for a state whose
// record matches the migrations as they are now; everything else runs wrangler, as before the record.
describe("the record of applied migrations", () => {
  let root: string;
  let migrations: string;
  let state: string;
  const database = () => join(state, "v3", "d1", "miniflare-D1DatabaseObject");

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "rfs-migrations-record-"));
    migrations = join(root, "migrations");
    state = join(root, "state");
    mkdirSync(migrations);
    writeFileSync(join(migrations, "0000_first.sql"), "CREATE TABLE a (id TEXT);");
    writeFileSync(join(migrations, "0001_second.sql"), "CREATE TABLE b (id TEXT);");
    mkdirSync(database(), { recursive: true });
    writeFileSync(join(database(), "metadata.sqlite"), "");
    writeFileSync(join(database(), "0123abcd.sqlite"), "");
    // One file per local database: DB's and the sandbox's DB_SANDBOX (LOCAL_DATABASES).
    writeFileSync(join(database(), "4567cdef.sqlite"), "");
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("is up to date once recorded, and a copy of the state carries the record", () => {
    expect(migrationsUpToDate(state, migrations)).toBe(false);
    recordMigrationsApplied(state, migrations);
    expect(migrationsUpToDate(state, migrations)).toBe(true);
  });

  it("is not up to date when a migration is added or its content changes", () => {
    recordMigrationsApplied(state, migrations);
    writeFileSync(join(migrations, "0001_second.sql"), "CREATE TABLE b (id TEXT, name TEXT);");
    expect(migrationsUpToDate(state, migrations)).toBe(false);
    recordMigrationsApplied(state, migrations);
    writeFileSync(join(migrations, "0002_third.sql"), "CREATE TABLE c (id TEXT);");
    expect(migrationsUpToDate(state, migrations)).toBe(false);
  });

  it("is not up to date when the database file is gone, though the record is there", () => {
    recordMigrationsApplied(state, migrations);
    rmSync(join(database(), "0123abcd.sqlite"));
    expect(migrationsUpToDate(state, migrations)).toBe(false);
  });

  it("is not up to date when the record cannot be read", () => {
    recordMigrationsApplied(state, migrations);
    writeFileSync(join(state, "v3", "d1", "rfs-migrations-applied.json"), "{not json");
    expect(migrationsUpToDate(state, migrations)).toBe(false);
  });
});
