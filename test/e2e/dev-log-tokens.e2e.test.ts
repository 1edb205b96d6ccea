/**
 * Issue 24 item 15: no dev log line carries a token. `wrangler dev` prints each request's path, so the
 * first visit of a hub link (`/hub/{leadId}/{token}`) or an invitation link (`/portal/invitations/{token}`)
 * would print the token; `npm run dev` (scripts/dev.mjs) redacts both from every line it passes on.
 * This starts `npm run dev` itself (its own port and state), visits both links, and reads its output.
 * Then, the service stopped, the state `npm run dev` migrated from nothing (one `wrangler d1 execute` of
 * the fresh script per database, scripts/lib/local-migrations.mjs) is one wrangler's own
 * `migrations apply` finds nothing to apply to.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { localRun } from "../../scripts/lib/local-run.mjs";
import { applyMigrations, migrationsUpToDate } from "../../scripts/lib/local-migrations.mjs";

let child: ChildProcess;
let output = "";
let run: Awaited<ReturnType<typeof localRun>>;
let url: string;

const seen = (text: string, timeoutMs: number) =>
  new Promise<void>((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      if (output.includes(text)) return resolve();
      if (Date.now() - started > timeoutMs) return reject(new Error(`not printed within ${timeoutMs} ms: ${text}\n${output.slice(-3000)}`));
      setTimeout(check, 200);
    };
    check();
  });

beforeAll(async () => {
  // The e2e service's preparation (scripts/lib/local-run.mjs): its own port and state directory, so a developer's running server is untouched.
  run = await localRun("rfs-dev-log-");
  url = `http://localhost:${run.port}`;
  // `npm run dev` is `node scripts/dev.mjs`.
  child = spawn(process.execPath, ["scripts/dev.mjs"], { env: { ...process.env, PORT: String(run.port), RFS_DEV_STATE: run.dir }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  child.stdout!.on("data", (d) => (output += String(d)));
  child.stderr!.on("data", (d) => (output += String(d)));
  await seen("Referral Funding Service is running.", 180_000);
  await seen("Ctrl-C stops the service", 10_000);
}, 200_000);

/** Stops `npm run dev` and its wrangler (its process group), resolving once it has exited. */
async function stopDev() {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    process.kill(-child.pid!, "SIGTERM");
  } catch {
    return; // already gone
  }
  await exited;
}

afterAll(async () => {
  await stopDev();
  run?.remove();
});

describe("issue 24 item 15: npm run dev prints no token", () => {
  it("item 15: visiting a hub link and an invitation link prints their request lines without the tokens", { timeout: 60_000 }, async () => {
    const sandboxKey = /sandbox secret key\s+(\S+)/.exec(output)![1]!;
    const adminToken = /Authorization: Bearer (\S+)/.exec(output)![1]!;
    const partnerId = /Demo partner "[^"]*" \((org_[^)]+)\)/.exec(output)![1]!;
    const printedBefore = output.length;

    const lead = await fetch(`${url}/partner/v1/leads`, {
      method: "POST",
      headers: { "X-API-Key": sandboxKey, "Content-Type": "application/json" },
      body: JSON.stringify({
        country: "GB",
        partner_reference: "DEV-LOG-1",
        channel: { name: "Log Books", domain: "logbooks.example" },
        business: { name: "Quiet Logs Ltd", company_number: "01234567", entity_type: "private_limited_company", industry: "retail" },
        contact: { first_name: "Ada", last_name: "Lovelace", email: "ada@logs.example", phone: "+44 20 7946 0000" },
        funding: { amount: 40000, purpose: "working_capital", product_family: "business_loan" },
        trading: { monthly_revenue: 30000, tib_months: 48, annual_turnover: 360000 },
        consent: { obtained: true, obtained_at: "2026-11-01T10:00:00Z", soft_credit_search: true },
      }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    expect(lead.status).toBe(201);
    const hubPath = new URL(lead.body.upload_url).pathname;
    const hubToken = hubPath.split("/").pop()!;
    expect(hubToken).toMatch(/^[0-9a-f]{40}$/);
    const hub = await fetch(`${url}${hubPath}`, { redirect: "manual" });
    expect(hub.status).toBe(303);

    const invitation = await fetch(`${url}/admin/v1/organisations/${partnerId}/invitations`, {
      method: "POST",
      headers: { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({ email: `${crypto.randomUUID().slice(0, 8)}@logs.example`, role: "member" }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    expect(invitation.status).toBe(201);
    const invitationPath = new URL(invitation.body.url).pathname;
    const invitationToken = invitationPath.split("/").pop()!;
    const opened = await fetch(`${url}${invitationPath}`, { redirect: "manual" });
    expect(opened.status).toBe(303);

    // The request lines were printed (the paths with the token redacted), and no line holds either token.
    await seen(`/hub/${lead.body.id}/[token]`, 20_000);
    await seen("/portal/invitations/[token]", 20_000);
    const printed = output.slice(printedBefore);
    for (const line of printed.split("\n")) {
      expect(line).not.toContain(hubToken);
      expect(line).not.toContain(invitationToken);
    }
  });
});

describe("npm run dev's fresh state", () => {
  // Not while the service runs: two wrangler runtimes on one state share its SQLite metadata (SQLITE_BUSY).
  it("is one that wrangler's own `migrations apply` finds nothing to apply to, and records it", { timeout: 120_000 }, async () => {
    await stopDev();
    expect(migrationsUpToDate(run.dir)).toBe(true);
    expect(existsSync(join(run.dir, "rfs-fresh-migrations.sql"))).toBe(false);
    // Without the record the state is no longer fresh (it has databases), so wrangler's own migration command runs on it.
    rmSync(join(run.dir, "v3", "d1", "rfs-migrations-applied.json"));
    expect(migrationsUpToDate(run.dir)).toBe(false);
    expect((await applyMigrations(run.dir)).match(/No migrations to apply!/g)).toHaveLength(2);
    expect(migrationsUpToDate(run.dir)).toBe(true);
    // wrangler's debug log went into the state (WRANGLER_LOG_PATH, scripts/lib/wrangler-child.mjs), not the home directory.
    expect(readdirSync(join(run.dir, "wrangler-logs")).filter((name) => /^wrangler-.+\.log$/.test(name)).length).toBeGreaterThanOrEqual(2);
  });
});
