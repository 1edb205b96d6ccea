import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import axe from "axe-core";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { putAxeIn } from "./axe-in-page";

// What every server-rendered page (portal, client hub) must hold in a real browser, one place for
// all the browser tests: nothing wider than a phone's screen, and no serious or critical
// accessibility violation found by axe; a screenshot of a state that fails its check is kept as a
// test artefact (of every checked state with E2E_SCREENSHOTS=1, see keepsEveryScreenshot).

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

type Axe = typeof axe;

/**
 * axe-core's findings on the page as it is now (`include`: only under that selector). axe is put into
 * the page once per document (a navigation drops it; the check at the next width reuses it), packed
 * (axe-in-page.ts), and run there with `axe.run`. @axe-core/playwright's `analyze()` evaluated the
 * 1.3 MB source again on every call, twice, and finished each run in a second, blank page: 3-5 s a
 * check on the shared 2-core machine against 0.3-1.5 s this way, with the same violations, passes and
 * incomplete results on the portal's pages (compared side by side; no checked page has an iframe, the
 * one case axe.run in the top frame would not reach alone).
 */
export async function axeResults(page: Page, include?: string, options: axe.RunOptions = {}): Promise<axe.AxeResults> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: Axe }).axe?.run === "function");
  if (!loaded) await putAxeIn(page);
  return page.evaluate(
    ({ selector, options }) => (window as unknown as { axe: Axe }).axe.run(selector ? { include: [[selector]] } : document, options),
    { selector: include ?? null, options },
  );
}

/**
 * The serious and critical axe violations, one line each: `rule: targets`. Every rule still runs on
 * every node; `resultTypes: ["violations"]` only spares axe building a selector for each node that
 * passed, was incomplete or inapplicable (it keeps one of each), which nobody reads here: the
 * violations and their nodes are the same (docs/testing.md, "Browser tests: Chromium's CPU").
 */
export async function graveAxeViolations(page: Page, include?: string): Promise<string[]> {
  const { violations } = await axeResults(page, include, { resultTypes: ["violations"] });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/**
 * Whether every checked page state's screenshot is kept in test-artifacts/ (`E2E_SCREENSHOTS=1`, and
 * `npm run docs:screenshots`). Otherwise only the state whose check failed is: a full-page screenshot
 * costs Chromium 0.2-1 s of CPU on this machine, and `npm test` took about 160 of them that nobody
 * looked at unless a check failed.
 */
export const keepsEveryScreenshot = () => process.env.E2E_SCREENSHOTS === "1" || process.env.DOCS_SCREENSHOTS === "1";

/** Runs `check` on the page as it is now, keeping its full-page screenshot at `path`: always with E2E_SCREENSHOTS=1, otherwise only when `check` fails. */
export async function screenshotFor(page: Page, path: string, check: () => Promise<void>) {
  const shoot = async () => {
    mkdirSync(dirname(path), { recursive: true });
    await page.screenshot({ path, fullPage: true });
  };
  if (keepsEveryScreenshot()) {
    await shoot();
    return check();
  }
  try {
    await check();
  } catch (error) {
    // The failed state as it is, for whoever reads the failure; the check's error is what the test reports.
    await shoot().catch(() => undefined);
    throw error;
  }
}

/** Checks the page as it is now at each width, then leaves it at the first. */
export async function checkPage(page: Page, name: string, options: { folder: string; widths?: { width: number; height: number }[] }) {
  const widths = options.widths ?? [DESKTOP, PHONE];
  for (const size of widths) {
    await page.setViewportSize(size);
    await screenshotFor(page, `${options.folder}/${name}-${size.width}.png`, async () => {
      if (size.width <= PHONE.width) {
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} scrolls sideways at ${size.width}`).toBeLessThanOrEqual(size.width);
      }
      expect(await graveAxeViolations(page), `${name} at ${size.width}: axe`).toEqual([]);
    });
  }
  await page.setViewportSize(widths[0]);
}

export const checkPortalPage = (page: Page, name: string) => checkPage(page, name, { folder: "test-artifacts/portal" });

/**
 * Whether this run keeps the docs' screenshots: `npm run docs:screenshots` (DOCS_SCREENSHOTS=1, one
 * lane) runs the four walks that keep them. `npm test` does not: docs/portal/*.png are linked into
 * assets/guides/, and every running `wrangler dev` of the checkout reloads on a write under assets/,
 * cutting off the requests in flight of the file in the other e2e lane (a PNG rewritten with the same
 * bytes made a running service print "Reloading local server"; docs/testing.md).
 */
const KEEP_DOCS_SCREENSHOTS = process.env.DOCS_SCREENSHOTS === "1";

/**
 * Keeps a page's screenshot as docs/portal/<file> so that a re-run with nothing changed writes the same
 * image (issue 23, the screenshots' churn): before the shot every value that differs from run to run
 * (times and dates, `RF-`/`DL-` references, ids, uuids, e-mail addresses, the e2e organisations'
 * generated names, local ports, hub link tokens, and figures counted from a register's date to now:
 * a company's age and months trading "from the company register", which grow by one each month)
 * is shown as one fixed example, in text and in
 * input values; caret and animations are off. The page is put back as it was afterwards, so the walk
 * goes on with its real values. The test artefacts (test-artifacts/) keep the real values.
 */
/** The docs' screenshots a walk took, by path, written when its file ends. */
const heldDocsShots = new Map<string, Buffer>();

/** Writes the held docs' screenshots that changed (after a file's tests: no request of the walk is in flight). */
export function writeHeldDocsShots() {
  for (const [path, shot] of heldDocsShots) if (!existsSync(path) || !readFileSync(path).equals(shot)) writeFileSync(path, shot);
  heldDocsShots.clear();
}

export async function keepForDocs(page: Page, file: string, size: { width: number; height: number }) {
  if (!KEEP_DOCS_SCREENSHOTS) return;
  mkdirSync("docs/portal", { recursive: true });
  const before = page.viewportSize();
  await page.setViewportSize(size);
  await page.evaluate(() => {
    const rules: [RegExp, string][] = [
      [/\b\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}(?: [A-Z]{2,5}(?:[+-]\d{1,2})?)?/g, "1 Dec 2026, 09:00 GMT"],
      [/\b\d{1,2} [A-Z][a-z]{2} \d{4}\b/g, "1 Dec 2026"],
      [/\b(?:January|February|March|April|May|June|July|August|September|October|November|December) \d{4}\b/g, "December 2026"],
      [/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z?)?/g, "2026-12-01"],
      [/\bRF-[A-Z0-9]{6}\b/g, "RF-7K3M9Q"],
      [/\bDL-[A-Z0-9]{8}\b/g, "DL-4R7T2K9P"],
      [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, "0f0e0d0c-0b0a-4000-8000-000000000000"],
      [/\b(whe|whd|inv|aud|org|mem|evt|ofr|off|doc|req|msg|pk|ses|lead|test)_[A-Za-z0-9]{6,}\b/g, "$1_example"],
      [/\bwhsec_[A-Za-z0-9_-]+/g, "whsec_example"],
      [/\brfs_(ptr|lnd|pub)_(sandbox|live)_[a-z0-9]{16}(?:_[a-z0-9]{40})?/g, "rfs_$1_$2_example"],
      [/[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g, "person@example.test"],
      [/\be2e (partner|lender) \d+/g, "Demo $1"],
      [/\b(localhost|127\.0\.0\.1):\d+/g, "$1:8787"],
      [/\/hub\/[A-Za-z0-9_-]{16,}(?:\/[0-9a-f]{40})?/g, "/hub/example-link"],
      // The walks' own businesses are named with the run's clock ("Phone Day Bakery 1795964944433 Ltd").
      [/ \d{13}\b/g, ""],
      // Figures counted from a register's date to now (months trading, a company's age) grow by one each month.
      [/\b\d+( months)? \(from the company register\)/g, "84$1 (from the company register)"],
    ];
    /** Rows whose value is counted to now, by their header: the number in the row's first value cell. */
    const countedToNow = /^Company age(?: \(months\))?$/;
    const fixed = (text: string) => rules.reduce((out, [pattern, to]) => out.replace(pattern, to), text);
    const undo: (() => void)[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement?.tagName;
      if (parent === "SCRIPT" || parent === "STYLE") continue;
      const was = node.nodeValue ?? "";
      const now = fixed(was);
      if (now !== was) {
        const text = node;
        text.nodeValue = now;
        undo.push(() => (text.nodeValue = was));
      }
    }
    for (const header of Array.from(document.querySelectorAll("th[scope=row]"))) {
      const cell = header.nextElementSibling;
      if (!cell || !countedToNow.test((header.textContent ?? "").trim())) continue;
      const was = cell.textContent ?? "";
      const now = was.replace(/\b\d+\b/, "84");
      if (now !== was) {
        const held = Array.from(cell.childNodes);
        cell.textContent = now;
        undo.push(() => cell.replaceChildren(...held));
      }
    }
    for (const input of Array.from(document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("input, textarea"))) {
      const was = input.value;
      const now = fixed(was);
      if (now !== was) {
        input.value = now;
        undo.push(() => (input.value = was));
      }
    }
    (window as unknown as { __unfreeze: () => void }).__unfreeze = () => undo.reverse().forEach((step) => step());
  });
  const shot = await page.screenshot({ fullPage: true, animations: "disabled", caret: "hide" });
  // Written only when the image changed. docs/portal/*.png are linked into assets/guides/, and every
  // running `wrangler dev` of this checkout reloads on any write under assets/ (the same bytes too):
  // a rewrite on every run cut off requests in flight in the other e2e lane. Held until the file's
  // walk has ended (test/e2e/docs-screenshots.setup.ts): a changed image written mid-walk reloaded the
  // walk's own service and cut off its next request (the partner's day, at its sign-out, 2026-11-29).
  heldDocsShots.set(`docs/portal/${file}`, shot);
  await page.evaluate(() => (window as unknown as { __unfreeze: () => void }).__unfreeze());
  if (before) await page.setViewportSize(before);
}
