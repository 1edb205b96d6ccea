import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, operator } from "../e2e/client";
import { chromiumForFile } from "./browser";
import { startPageServer } from "./page-server";

// A real browser enforces CORS; these tests prove a partner page can call the
// browser-safe routes with a publishable key from an allowed origin, and that
// a page elsewhere cannot read the answer.
/** The file's Chromium (the shared setup of test/browser/browser.ts). */
const browser = chromiumForFile();
let pages: Awaited<ReturnType<typeof startPageServer>>;
let allowedOrigin: string;
let otherOrigin: string;
let publishableKey: string;
let secretKey: string;

beforeAll(async () => {
  pages = await startPageServer();
  allowedOrigin = `http://127.0.0.1:${pages.port}`;
  otherOrigin = `http://localhost:${pages.port}`;
  const org = (await operator("POST", "/organisations", { name: "browser partner", kind: "partner" })).body;
  publishableKey = (await operator("POST", `/organisations/${org.id}/keys`, { environment: "sandbox", type: "publishable", allowed_origins: [allowedOrigin] })).body.key;
  secretKey = (await operator("POST", `/organisations/${org.id}/keys`, { environment: "sandbox" })).body.key;
});

afterAll(async () => {
  await pages?.close();
});

async function pageAt(origin: string): Promise<Page> {
  const page = await browser().newPage();
  await page.goto(`${origin}/`);
  return page;
}

/** Runs fetch inside the page, as the partner's front-end code would. */
function fetchFromPage(page: Page, url: string, init: { method?: string; headers?: Record<string, string>; body?: string }) {
  return page.evaluate(
    async ({ url, init }) => {
      try {
        const res = await fetch(url, init);
        return { ok: true, status: res.status, body: await res.json(), requestId: res.headers.get("X-Request-Id") };
      } catch (error) {
        return { ok: false, error: String(error) };
      }
    },
    { url, init },
  );
}

describe("a publishable key in a partner's web page", () => {
  it("reads an enum list cross-origin from an allowed origin, through a preflight", async () => {
    const page = await pageAt(allowedOrigin);
    const result = await fetchFromPage(page, `${baseUrl()}/partner/v1/enums/purposes`, { headers: { "X-API-Key": publishableKey } });
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect((result as any).body.values.length).toBeGreaterThan(0);
    expect((result as any).requestId).toMatch(/^req_/);
    await page.close();
  });

  it("prequalifies from the page: a JSON POST through a preflight, answered without storing anything", async () => {
    const page = await pageAt(allowedOrigin);
    const result = await fetchFromPage(page, `${baseUrl()}/partner/v1/prequalification`, {
      method: "POST",
      headers: { "X-API-Key": publishableKey, "Content-Type": "application/json" },
      body: JSON.stringify({ country: "GB", funding: { purpose: "working_capital", amount: 40000 }, trading: { monthly_revenue_band: "25k_50k", tib_months: 30 } }),
    });
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect((result as any).body).toMatchObject({ country: "UK", currency: "GBP", supported_countries: expect.arrayContaining(["UK", "US"]) });
    expect(typeof (result as any).body.eligible).toBe("boolean");
    await page.close();
  });

  it("cannot read the answer from an origin not on the key's list: only the refusal, so an embedded form can say why", async () => {
    const page = await pageAt(otherOrigin);
    const result = await fetchFromPage(page, `${baseUrl()}/partner/v1/enums/purposes`, { headers: { "X-API-Key": publishableKey } });
    expect(result).toMatchObject({ ok: true, status: 403, body: { error: { code: "origin_not_allowed" } } });
    expect(JSON.stringify((result as any).body)).not.toMatch(/working_capital/);
    await page.close();
  });

  it("cannot call a secret-key route such as /me", async () => {
    const page = await pageAt(allowedOrigin);
    const result = await fetchFromPage(page, `${baseUrl()}/partner/v1/me`, { headers: { "X-API-Key": publishableKey } });
    expect(result.ok).toBe(false);
    await page.close();
  });

  it("gets no CORS access with a secret key, which must never live in a page", async () => {
    const page = await pageAt(allowedOrigin);
    const result = await fetchFromPage(page, `${baseUrl()}/partner/v1/enums/purposes`, { headers: { "X-API-Key": secretKey } });
    expect(result.ok).toBe(false);
    await page.close();
  });
});
