/**
 * Issue 21 item 13: a Content-Security-Policy on /docs (scripts from its own origin, the one inline
 * start-up script by nonce), `Cache-Control: no-store` on API answers that carry personal data, and
 * `Strict-Transport-Security` on HTTPS requests only. Scalar under the policy in Chromium:
 * test/browser/docs.browser.test.ts.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { partnerWithKeys } from "../helpers/seed";
import { createLead } from "../leads/helpers";

const get = (url: string) => exports.default.fetch(new Request(url));

describe("issue 21 item 13: headers", () => {
  it("item 13: /docs sends a CSP whose nonce marks every script tag and no other origin", async () => {
    const res = await get("http://api.test/docs");
    expect(res.status).toBe(200);
    const csp = res.headers.get("Content-Security-Policy") ?? "";
    const nonce = /script-src 'self' 'nonce-([A-Za-z0-9_-]+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/https?:/);
    expect(csp).not.toContain("unsafe-eval");
    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect(html).toMatch(/src="\/docs\/scalar\.[0-9a-f]{16}\.js"/); // the content-hashed name (issue 24 item 7)
    // A fresh nonce per answer.
    const again = (await get("http://api.test/docs")).headers.get("Content-Security-Policy");
    expect(again).not.toBe(csp);
    expect((await get("http://api.test/docs/guides")).headers.get("Content-Security-Policy")).toContain("script-src 'self'");
  });

  it("item 13: API answers carrying personal data are no-store", async () => {
    const { live } = await partnerWithKeys();
    const lead = await createLead(live.key);
    for (const path of [`/partner/v1/leads/${lead.id}`, "/partner/v1/leads", "/partner/v1/me", "/partner/v1/events"]) {
      const res = await call("GET", path, { key: live.key });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("Cache-Control"), path).toBe("no-store");
    }
  });

  it("item 13: Strict-Transport-Security on HTTPS requests, never on plain HTTP", async () => {
    const secure = await get("https://api.test/health");
    expect(secure.headers.get("Strict-Transport-Security")).toBe("max-age=31536000; includeSubDomains");
    const plain = await get("http://api.test/health");
    expect(plain.headers.get("Strict-Transport-Security")).toBeNull();
    expect((await get("https://api.test/docs")).headers.get("Strict-Transport-Security")).toContain("max-age=");
  });
});
