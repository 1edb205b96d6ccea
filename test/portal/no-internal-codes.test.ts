/**
 * Issue 23 item 9: the portal shows people labels, never the raw codes of the reference lists
 * (bands, purposes, entity types, statuses, audit action names, roles, environments). The codes
 * are read from their one source of truth (src/domain); the visible text is the page without its
 * tags and attributes, without `<pre>`/`<code>` (API payloads, webhook event names a developer
 * filters by, copyable ids) and without scripts.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS, ENVIRONMENT_LABELS, ROLE_LABELS } from "../../src/domain/portal/audit-actions";
import { FUNDING_AMOUNT_BANDS, INDUSTRIES, LEAD_STATES, PURPOSES, REVENUE_BANDS, TIME_IN_BUSINESS_BANDS } from "../../src/domain/reference/values";
import { portal, signedInMember } from "../helpers/portal";
import { partnerWithKeys } from "../helpers/seed";
import { completeUkForm } from "./partner/helpers";
import { lenderAtLiveDeal } from "./lender/support";

/** What a person reads: no scripts, styles, payloads, code, tags or attributes; entities decoded. */
function visibleText(html: string) {
  return html
    .replace(/<(script|style|pre|code|select|textarea)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

/** The text of each table cell (a one-word code such as `admin` is a defect only where it is the whole value). */
const cellsOf = (html: string) => [...html.replace(/<(pre|code)\b[\s\S]*?<\/\1>/gi, " ").matchAll(/<td\b[^>]*>([\s\S]*?)<\/td>/gi)].map((m) => visibleText(m[1]).trim());

const listed = (list: readonly { value: string }[]) => list.map((e) => e.value);
const CODES = [
  ...listed(AUDIT_ACTIONS),
  ...listed(ROLE_LABELS),
  ...listed(ENVIRONMENT_LABELS),
  ...listed(FUNDING_AMOUNT_BANDS),
  ...listed(REVENUE_BANDS),
  ...listed(TIME_IN_BUSINESS_BANDS),
  ...listed(PURPOSES),
  ...listed(INDUSTRIES),
  ...listed(LEAD_STATES),
  "private_limited_company",
  "band_midpoint",
];
/** Codes that cannot be words of a sentence (they carry `_`, `.` or a digit). */
const MARKED = CODES.filter((c) => /[_.\d]/.test(c));

function expectNoCodes(path: string, html: string) {
  const text = visibleText(html);
  const found = MARKED.filter((code) => new RegExp(`(^|[^\\w.-])${code.replace(/\./g, "\\.")}($|[^\\w-])`).test(text));
  expect({ path, found }).toEqual({ path, found: [] });
  const bare = cellsOf(html).filter((cell) => CODES.includes(cell));
  expect({ path, bare }).toEqual({ path, bare: [] });
}

describe("no internal codes on the portal's pages", () => {
  it("members, invitations, audit, events, keys, leads and the lead page show labels", async () => {
    const { organisation } = await partnerWithKeys();
    const admin = await signedInMember(organisation.id, "admin");
    await signedInMember(organisation.id, "member");
    expect((await portal("POST", "/members/invitations", { session: admin, form: { email: `inv-${crypto.randomUUID().slice(0, 6)}@example.test`, role: "member" } })).status).toBe(201);
    expect((await portal("POST", "/members/invitations", { session: admin, form: { email: `inv-${crypto.randomUUID().slice(0, 6)}@example.test`, role: "admin" } })).status).toBe(201);

    // Leads with different bands, purposes and industries; one submitted.
    const leadPaths: string[] = [];
    for (const [i, purpose] of ["stock_inventory", "working_capital", "equipment"].entries()) {
      const { "funding.amount": _, ...form } = completeUkForm();
      const res = await portal("POST", "/leads/new", {
        session: admin,
        form: { ...form, "funding.amount_band": FUNDING_AMOUNT_BANDS[i + 1].value, "funding.purpose": purpose, "business.industry": INDUSTRIES[i].value, intent: i === 0 ? "submit" : "save" },
      });
      expect(res.status).toBe(303);
      leadPaths.push(res.headers.get("location")!.replace(/^\/portal/, "").replace(/\?.*$/, ""));
    }

    // Every audit action the portal writes, in both environments.
    const at = new Date().toISOString();
    for (const [i, { value }] of AUDIT_ACTIONS.entries()) {
      await env.DB.prepare("insert into portal_audit_log (id, organisation_id, member_id, environment, action, target, at) values (?, ?, ?, ?, ?, ?, ?)")
        .bind(`aud_${crypto.randomUUID()}`, organisation.id, admin.memberId, i % 2 ? "live" : "sandbox", value, `lead_${i}`, at)
        .run();
    }

    const pages = ["/", "/leads", ...leadPaths, "/events", "/members", "/audit", "/keys", "/webhooks"];
    for (const path of pages) {
      const page = await portal("GET", path, { session: admin });
      expect({ path, status: page.status }).toEqual({ path, status: 200 });
      expectNoCodes(path, page.text);
    }
    const audit = await portal("GET", "/audit", { session: admin });
    expect(audit.text).toContain("Created an API key");
    // The action name is no code shown as the action: not even inside <code>.
    for (const { value } of AUDIT_ACTIONS) expect(audit.text).not.toContain(`>${value}<`);
    expect(cellsOf(audit.text)).toContain("Live");
    expect(audit.text).toMatch(/data-copy="copy-audit-/);
    const members = await portal("GET", "/members", { session: admin });
    expect(cellsOf(members.text)).toContain("Admin");
    expect(cellsOf(members.text)).toContain("Member");
  });

  it("the keys page gives each client id a copy button", async () => {
    const { organisation } = await partnerWithKeys();
    const admin = await signedInMember(organisation.id, "admin");
    expect((await portal("POST", "/keys", { session: admin, form: { type: "secret", allowed_origins: "" } })).status).toBe(201);
    const keys = await portal("GET", "/keys", { session: admin });
    const ids = [...keys.text.matchAll(/<input id="(copy-key-[^"]+)"[^>]*readonly/g)].map((m) => m[1]);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(keys.text).toContain(`data-copy="${id}"`);
  });

  it("the lender's overview, deals list and deal page, and the prequalification result show labels", async () => {
    const { refA, session } = await lenderAtLiveDeal();
    for (const path of ["/", "/deals", `/deals/${refA}`]) {
      const page = await portal("GET", path, { session });
      expect({ path, status: page.status }).toEqual({ path, status: 200 });
      expectNoCodes(path, page.text);
    }
    const { organisation } = await partnerWithKeys();
    const partner = await signedInMember(organisation.id, "member");
    const form = { country: "GB", "funding.purpose": "stock_inventory", "funding.amount": "40000", "trading.monthly_revenue_band": "25k_50k", "trading.tib_months": "36" };
    const result = await portal("POST", "/prequalification", { session: partner, form });
    expect(result.status).toBe(200);
    expectNoCodes("/prequalification", result.text);
  });
});
