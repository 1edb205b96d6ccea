import { mkdirSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { expect } from "vitest";

// What every server-rendered page (portal, client hub) must hold in a real browser, one place for
// all the browser tests: a screenshot kept as a test artefact, nothing wider than a phone's
// screen, and no serious or critical accessibility violation found by axe.

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** Checks the page as it is now at each width, then leaves it at the first. */
export async function checkPage(page: Page, name: string, options: { folder: string; widths?: { width: number; height: number }[] }) {
  const widths = options.widths ?? [DESKTOP, PHONE];
  mkdirSync(options.folder, { recursive: true });
  for (const size of widths) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `${options.folder}/${name}-${size.width}.png`, fullPage: true });
    if (size.width <= PHONE.width) {
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} scrolls sideways at ${size.width}`).toBeLessThanOrEqual(size.width);
    }
    const { violations } = await new AxeBuilder({ page }).analyze();
    const grave = violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    expect(grave, `${name} at ${size.width}: axe`).toEqual([]);
  }
  await page.setViewportSize(widths[0]);
}

export const checkPortalPage = (page: Page, name: string) => checkPage(page, name, { folder: "test-artifacts/portal" });
