import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { baseUrl } from "../e2e/client";
import { chromiumForFile } from "./browser";

// The API reference as a reader meets it: Scalar rendering the served OpenAPI
// documents, with every byte coming from this service.
const browser = chromiumForFile();

/** Opens a page at the given width and records every request that leaves the service's origin. */
async function open(width: number, path = "/docs") {
  const page = await browser().newPage({ viewport: { width, height: 844 } });
  const origin = new URL(baseUrl()).origin;
  const external: string[] = [];
  const failures: string[] = [];
  page.on("request", (req) => {
    const url = req.url();
    if (!url.startsWith(origin) && !url.startsWith("data:") && !url.startsWith("blob:")) external.push(url);
  });
  page.on("pageerror", (error) => failures.push(String(error)));
  await page.route((url) => url.origin !== origin, (route) => route.abort());
  await page.goto(`${baseUrl()}${path}`, { waitUntil: "load" });
  return { page, external, failures };
}

/** The summary of the partner API's first operation, shown open on load. */
const FIRST_OPERATION = "Exchange an API key for a one-hour bearer token";

const horizontalOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe("the API reference at /docs in a browser", () => {
  it("renders the partner API's operations with nothing loaded from elsewhere", { timeout: 90_000 }, async () => {
    const { page, external, failures } = await open(1280);
    await page.getByText(FIRST_OPERATION).first().waitFor({ timeout: 45_000 });
    // Every operation is listed in the navigation, by its summary.
    const nav = await page.locator("aside, nav").allInnerTexts();
    expect(nav.join("\n")).toContain("Leads");
    // The navigation renders before the document's body: wait for the body's title before reading the text
    // (read at once, it once held only the navigation: 2026-11-26 22:55).
    await page.getByText("Referral Funding Service: partner API").first().waitFor({ timeout: 45_000 });
    // Markdown in descriptions is rendered: no raw backticks around `error.code`.
    const text = await page.locator("#app").innerText();
    expect(text).toContain("Referral Funding Service: partner API");
    expect(text).not.toMatch(/`error\.code`/);
    expect(external).toEqual([]);
    expect(failures).toEqual([]);
    await page.close();
  });

  it.each([
    ["lender", "Referral Funding Service: lender API"],
    ["operator", "Referral Funding Service: operator API"],
  ])("renders the %s API as a further document", { timeout: 90_000 }, async (slug, title) => {
    const { page, external } = await open(1280, `/docs?api=${slug}`);
    await page.getByText(title).first().waitFor({ timeout: 45_000 });
    expect(external).toEqual([]);
    await page.close();
  });

  // One load of /docs at phone width, opened at the deprecation notice's anchor, serves both tests below: a Scalar
  // load costs Chromium about 3 CPU-s (docs/testing.md, "One Scalar load for the phone and the anchors").
  describe("at 390 px, opened at #deal-deprecated-fields", () => {
    let opened: Awaited<ReturnType<typeof open>> | undefined;
    const phonePage = async () => (opened ??= await open(390, "/docs#deal-deprecated-fields"));
    afterAll(() => opened?.page.close());

    it("has the anchors responses link to: problem types and the deprecation notice", { timeout: 90_000 }, async () => {
      const { page } = await phonePage();
      const notice = page.locator("#deal-deprecated-fields");
      await expect.poll(() => notice.evaluate((el) => el.closest("details")?.open)).toBe(true);
      expect(await notice.innerText()).toContain("market.monthly_revenue");
      expect(await page.locator("#error-rate_limited").count()).toBe(1);
    });

    it("fits a 390 px phone without sideways scrolling", { timeout: 90_000 }, async () => {
      const { page, external } = await phonePage();
      await page.getByText(FIRST_OPERATION).first().waitFor({ state: "attached", timeout: 45_000 });
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      // Opening the notes must not widen the page either.
      await page.locator("summary", { hasText: "Error codes" }).click();
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      expect(external).toEqual([]);
    });
  });
});
