// `npm run listen` against wrangler dev: it registers an endpoint, prints each delivery with its
// verification, forwards it byte for byte, and deletes the endpoint on Ctrl-C.
import { verifyWebhook } from "../../sdk/src/index.js";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, http, newPartner } from "./client";
import { startReceiver } from "./receiver";

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const LISTEN = resolve("scripts/listen.mjs");

function listen(args: string[], at: { cwd?: string; env?: Record<string, string | undefined> } = {}) {
  const child = spawn(process.execPath, [LISTEN, ...args], { stdio: ["ignore", "pipe", "pipe"], cwd: at.cwd, env: at.env ?? process.env }) as unknown as ChildProcessWithoutNullStreams;
  let output = "";
  child.stdout.on("data", (d) => (output += String(d)));
  child.stderr.on("data", (d) => (output += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    child,
    exited,
    output: () => output,
    async waitFor(pattern: RegExp, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const match = pattern.exec(output);
        if (match) return match;
        if (child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`listen did not print ${pattern}; it printed:\n${output}`);
    },
  };
}

describe("npm run listen finds the dev server's port and says where it found it", () => {
  const port = new URL(baseUrl()).port;
  const { PORT: _ignored, ...withoutPort } = process.env;
  const dirs: string[] = [];
  const project = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), "rfs-listen-"));
    dirs.push(dir);
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, name, ".."), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    return dir;
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  const cases: { name: string; files: Record<string, string>; env: NodeJS.ProcessEnv; says: string }[] = [
    { name: "PORT in the environment", files: { ".dev.vars": "PORT=9\n" }, env: { ...withoutPort, PORT: port }, says: "PORT in the environment" },
    // A stale .dev.vars port loses to the npm run dev that is running (recorded with its pid: this test's own, alive).
    {
      name: "the running npm run dev",
      files: { ".dev.vars": "PORT=9\n", ".state/dev/server.json": JSON.stringify({ url: `http://localhost:${port}`, pid: process.pid }) },
      env: withoutPort,
      says: "the running npm run dev (.state/dev/server.json)",
    },
    { name: "PORT in .dev.vars", files: { ".dev.vars": `ADMIN_TOKEN=x\nPORT=${port}\n` }, env: withoutPort, says: "PORT in .dev.vars" },
  ];
  for (const c of cases) {
    it(`from ${c.name}`, async () => {
      const { sandbox } = await newPartner();
      const listener = listen(["--api-key", sandbox.key], { cwd: project(c.files), env: c.env });
      try {
        await listener.waitFor(/^Ready\./m);
        expect(listener.output()).toContain(`Service http://localhost:${port} (from ${c.says})`);
        listener.child.kill("SIGINT");
        expect(await listener.exited).toBe(0);
      } finally {
        if (listener.child.exitCode === null) listener.child.kill("SIGKILL");
      }
    });
  }

  it("says which default it tried when nothing names a port", async () => {
    const listener = listen(["--api-key", "rfs_ptr_sandbox_x_y"], { cwd: project({}), env: withoutPort });
    await listener.exited;
    expect(listener.output()).toContain("Service http://localhost:8787 (from the default port 8787");
  });
});

describe("npm run listen", () => {
  it("prints and forwards a test ping and a real event, then deletes its endpoint on Ctrl-C", async () => {
    const { sandbox } = await newPartner();
    const headers = { "X-API-Key": sandbox.key };
    const listener = listen(["--base-url", baseUrl(), "--api-key", sandbox.key, "--forward-to", receiver.url]);
    try {
      await listener.waitFor(/^Ready\./m);
      const [, endpointId] = await listener.waitFor(/endpoint {2}(whe_\w+)/);
      const [, secret] = await listener.waitFor(/secret {4}(whsec_\S+)/);

      const ping = await http("POST", `${baseUrl()}/partner/v1/webhooks/${endpointId}/test`, { headers });
      expect(ping.body).toMatchObject({ event: "ping", state: "succeeded", last_status_code: 200 });
      await listener.waitFor(new RegExp(`  ping  ${ping.body.event_id}  verified  -> 200`));
      const forwardedPing = await receiver.waitFor((r) => r.headers["x-service-delivery"] === ping.body.id);
      expect((await verifyWebhook(forwardedPing.raw, forwardedPing.headers, secret)).event).toBe("ping");

      const lead = await http("POST", `${baseUrl()}/partner/v1/leads`, {
        headers,
        body: {
          country: "GB",
          business: { name: "Listen Ltd", company_number: "01234567", entity_type: "private_limited_company" },
          funding: { amount: 30000, purpose: "working_capital" },
          trading: { monthly_revenue: 25000, tib_months: 40 },
        },
      });
      expect((await http("POST", `${baseUrl()}/partner/v1/leads/${lead.body.id}/submit`, { headers })).status).toBe(200);
      const forwarded = await receiver.waitFor((r) => r.headers["x-service-event"] === "lead.submitted" && r.raw.includes(lead.body.id));
      await listener.waitFor(new RegExp(`  lead\\.submitted  ${forwarded.headers["webhook-id"]}  verified  -> 200`));
      // Forwarded unchanged: the signatures still verify over the forwarded bytes.
      const event = await verifyWebhook(forwarded.raw, forwarded.headers, secret);
      expect(event).toMatchObject({ event: "lead.submitted", data: { lead_id: lead.body.id } });
      for (const name of ["x-service-signature-256", "webhook-signature", "x-service-delivery", "x-service-payload", "content-type"]) {
        expect(forwarded.headers[name], name).toEqual(expect.any(String));
      }

      listener.child.kill("SIGINT");
      expect(await listener.exited).toBe(0);
      expect(listener.output()).toContain(`Deleted endpoint ${endpointId}.`);
      expect((await http("GET", `${baseUrl()}/partner/v1/webhooks/${endpointId}`, { headers })).status).toBe(404);
    } finally {
      if (listener.child.exitCode === null) listener.child.kill("SIGKILL");
    }
  });

  it("prints a delivery whose signature does not verify as NOT VERIFIED", async () => {
    const { sandbox } = await newPartner();
    const listener = listen(["--base-url", baseUrl(), "--api-key", sandbox.key]);
    try {
      await listener.waitFor(/^Ready\./m);
      const [, port] = await listener.waitFor(/on http:\/\/127\.0\.0\.1:(\d+)\/webhooks/);
      const forged = await fetch(`http://127.0.0.1:${port}/webhooks`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Service-Event": "lead.funded", "webhook-id": "evt_forged", "X-Service-Signature-256": `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` },
        body: "{}",
      });
      expect(forged.status).toBe(200);
      await listener.waitFor(/ {2}lead\.funded {2}evt_forged {2}NOT VERIFIED {2}-> not forwarded/);
      listener.child.kill("SIGTERM");
      expect(await listener.exited).toBe(0);
    } finally {
      if (listener.child.exitCode === null) listener.child.kill("SIGKILL");
    }
  });

  it("explains a refused key instead of listening", async () => {
    const listener = listen(["--base-url", baseUrl(), "--api-key", "rfs_ptr_sandbox_0000000000000000_0000000000000000000000000000000000000000"]);
    expect(await listener.exited).toBe(2);
    expect(listener.output()).toMatch(/registering http:\/\/127\.0\.0\.1:\d+\/webhooks failed with 401 unauthorized/);
  });
});
