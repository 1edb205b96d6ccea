// Seeds leads fast: one INSERT … SELECT per scope that copies a template lead
// (made through the API, so every column is what the service writes) over a
// recursive counter, applied with `wrangler d1 execute --local --file`.
// 100,000 rows take seconds this way; through the API they would take minutes.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WRANGLER, wranglerEnv } from "../../scripts/lib/wrangler-child.mjs";

/** Rows per INSERT statement: keeps each statement's transaction short. */
const CHUNK = 10_000;

const quote = (text) => `'${String(text).replaceAll("'", "''")}'`;

const COLUMNS = [
  "id", "organisation_id", "environment", "reference", "partner_reference", "state", "country", "channel", "business", "contact",
  "funding", "trading", "consent", "significant_persons", "timeline", "matched_options", "options", "version", "submission_token",
  "submitted_at", "created_at", "updated_at",
];

/**
 * One statement copying `templateId` `count` times into a scope. Ids are
 * version-4-shaped UUIDs numbered by scope and row; references are unique per
 * environment; created_at steps back a minute per row from 2026-01-01, so the
 * seeded leads sit behind anything made through the API. Each copy gets a
 * company number of its own (scope and row), since a company is routed for one
 * introducer at a time (docs/leads.md, "Attribution"): copies of one number would
 * be refused as duplicates when the bench submits them.
 */
function insertStatement({ scopeNumber, organisationId, environment, templateId, from, count }) {
  const values = {
    id: `printf('%08x-%04x-4000-8000-000000000000', i, ${scopeNumber})`,
    organisation_id: quote(organisationId),
    environment: quote(environment),
    reference: `printf('RB-%d-%06d', ${scopeNumber}, i)`,
    business: `CASE WHEN json_extract(t.business, '$.company_number') IS NULL THEN t.business ELSE json_set(t.business, '$.company_number', printf('%02d%06d', ${scopeNumber % 100}, i % 1000000)) END`,
    submission_token: "NULL",
    submitted_at: "NULL",
    created_at: "strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', printf('-%d minutes', i))",
    updated_at: "strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', printf('-%d minutes', i))",
  };
  const select = COLUMNS.map((c) => values[c] ?? `t.${c}`).join(", ");
  return (
    `WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${from + count - 1}) ` +
    `INSERT INTO leads (${COLUMNS.join(", ")}) SELECT ${select} FROM n, leads t WHERE t.id = ${quote(templateId)};`
  );
}

/**
 * `then`: one read-only query run by the same `wrangler d1 execute`, after the inserts; its rows come
 * back as `queried` (bench/run.mjs counts the leads this way instead of starting one more wrangler
 * process, seconds of CPU, for `queryLocal`).
 * @param {{ persistTo: string, plan: { scopeNumber: number, organisationId: string, environment: string, templateId: string, count: number }[], then?: string }} options
 * @returns {{ rows: number, ms: number, queried?: Record<string, unknown>[] }}
 */
export function seedLeads({ persistTo, plan, then }) {
  const started = performance.now();
  const statements = [];
  for (const scope of plan) {
    for (let from = 1; from <= scope.count; from += CHUNK) {
      statements.push(insertStatement({ ...scope, from: from + (scope.offset ?? 0), count: Math.min(CHUNK, scope.count - from + 1) }));
    }
  }
  if (then) statements.push(then.trim().replace(/;?$/, ";"));
  const dir = mkdtempSync(join(tmpdir(), "rfs-bench-seed-"));
  let queried;
  try {
    const file = join(dir, "seed.sql");
    writeFileSync(file, statements.join("\n") + "\n");
    const run = spawnSync(WRANGLER, ["d1", "execute", "rfs", "--local", "--persist-to", persistTo, "--file", file, "--yes", ...(then ? ["--json"] : [])], {
      encoding: "utf8",
      env: wranglerEnv({ logsIn: persistTo }),
      maxBuffer: 64 * 1024 * 1024,
    });
    if (run.status !== 0) throw new Error(`seeding failed:\n${run.stdout}\n${run.stderr}`);
    // With --json, one result per statement, in order: the last is `then`'s.
    if (then) queried = JSON.parse(run.stdout).at(-1).results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { rows: plan.reduce((n, s) => n + s.count, 0), ms: performance.now() - started, ...(then ? { queried } : {}) };
}

/** Runs one read-only query against the local database and returns its rows. */
export function queryLocal(persistTo, sql) {
  const run = spawnSync(WRANGLER, ["d1", "execute", "rfs", "--local", "--persist-to", persistTo, "--json", "--command", sql], {
    encoding: "utf8",
    env: wranglerEnv({ logsIn: persistTo }),
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`query failed: ${sql}\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(run.stdout)[0].results;
}
