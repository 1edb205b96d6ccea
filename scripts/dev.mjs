#!/usr/bin/env node
// `npm run dev`: local D1 migrated, demo organisations, panel and keys seeded
// (idempotently), the keys and base URLs printed, then wrangler dev serving.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { DEMO_PORTAL_ADMINS, demoInvitation, invitationLines } from "./lib/portal-invitations.mjs";
import { seedDemo } from "./lib/seed.mjs";
import { DEV_STATE, devPort, recordRunning } from "./lib/dev-server.mjs";
import { startService } from "./lib/service.mjs";
import { redactingLines, redactTokens } from "./lib/redact-log.mjs";

const STATE = DEV_STATE;

// Only the operator token: without SIGNING_SECRET a local deployment signs with its local-only key (src/lib/signing-secret.ts).
// 32 random bytes, the least a deployed environment accepts (src/lib/admin-token.ts), so a local copy looks like one.
function devVars() {
  if (!existsSync(".dev.vars")) {
    writeFileSync(".dev.vars", `ADMIN_TOKEN=${randomBytes(32).toString("hex")}\n`, { mode: 0o600 });
  }
  return Object.fromEntries(
    readFileSync(".dev.vars", "utf8")
      .split("\n")
      .filter((l) => l.includes("="))
      .map((l) => [l.slice(0, l.indexOf("=")).trim(), l.slice(l.indexOf("=") + 1).trim()]),
  );
}

const vars = devVars();
// PORT in the environment, else PORT in .dev.vars, else 8787 (scripts/lib/dev-server.mjs; `npm run listen` reads the same).
const PORT = devPort();
console.log("Applying migrations and starting wrangler dev…");
const service = await startService({
  port: PORT,
  persistTo: STATE,
  vars: { ALLOW_PRIVATE_WEBHOOKS: "true" },
  // DevTools where a developer looks for it (9229 unless taken), not a port of the moment.
  inspector: "wrangler",
  log: (line) => process.env.VERBOSE && process.stdout.write(redactTokens(line)),
});
const forgetRunning = recordRunning(service.url);
const origins = [`http://localhost:${PORT}`, `http://127.0.0.1:${PORT}`];
const { partner, lenders, keys } = await seedDemo({ url: service.url, adminToken: vars.ADMIN_TOKEN, keysFile: `${STATE}/demo-keys.json`, origins });
const signInUrl = `${service.url}/portal/sign-in`;
const portalLines = [invitationLines("Demo partner", DEMO_PORTAL_ADMINS.partner, await demoInvitation({ url: service.url, adminToken: vars.ADMIN_TOKEN, organisationId: partner.id, email: DEMO_PORTAL_ADMINS.partner }), signInUrl)];
if (lenders[0]) {
  portalLines.push(invitationLines(`Demo lender (${lenders[0].name})`, DEMO_PORTAL_ADMINS.lender, await demoInvitation({ url: service.url, adminToken: vars.ADMIN_TOKEN, organisationId: lenders[0].id, email: DEMO_PORTAL_ADMINS.lender }), signInUrl));
}

console.log(`
Referral Funding Service is running.

  Production host  ${service.url}          (accepts sandbox and live keys)
  Sandbox host     ${service.sandboxUrl}          (sandbox keys only)
  Partner API      ${service.url}/partner/v1
  Lender API       ${service.url}/v1
  Docs             ${service.url}/docs
  Operator API     ${service.url}/admin/v1   Authorization: Bearer ${vars.ADMIN_TOKEN}

Demo partner "${partner.name}" (${partner.id})
  sandbox secret key      ${keys.partner_sandbox}
  live secret key         ${keys.partner_live}
  publishable key         ${keys.partner_publishable}   (origins: ${origins.join(", ")})
  website form demo       ${service.url}/embed/v1/demo?key=${keys.partner_publishable}
${lenders.length ? `Demo panel: ${lenders.map((l) => `${l.name} (${l.products} products)`).join(", ")}
  lender live key         ${keys.lender_live}    (${lenders[0].name})
  lender sandbox key      ${keys.lender_sandbox}` : "Demo panel: none yet"}

Portal (sign in with a passkey; docs/portal.md)
${portalLines.join("\n")}

Try:
  curl -s ${service.url}/partner/v1/me -H "X-API-Key: ${keys.partner_sandbox}"

Ctrl-C stops the service; state persists in ${STATE}.
`);

// wrangler prints each request's path: hub and invitation tokens in it are redacted (scripts/lib/redact-log.mjs).
const out = redactingLines((text) => process.stdout.write(text));
const err = redactingLines((text) => process.stderr.write(text));
service.child.stdout.on("data", (d) => out.push(d));
service.child.stderr.on("data", (d) => err.push(d));
const stop = () => {
  forgetRunning();
  service.stop();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
