import { existsSync, rmSync } from "node:fs";
import axe from "axe-core";
import { describe, expect, it } from "vitest";
import { chromiumForFile } from "./browser";
import { axeResults, checkPage, graveAxeViolations, keepsEveryScreenshot, PHONE } from "./page-checks";

// The page check every browser walk leans on (page-checks.ts) must be able to fail: axe put into a page
// once and run again where the page changed still sees the change, a serious or critical finding fails
// the check, and so does a page wider than the phone. No service: the pages are written in place.
const browser = chromiumForFile();
const FOLDER = "test-artifacts/page-checks";

const CLEAN = `<!doctype html><html lang="en"><head><title>Clean</title></head><body><main><h1>Clean</h1><p>Nothing wrong here.</p></main></body></html>`;

describe("the page check", () => {
  it("finds what changed in the same document after axe was put into it, and only serious or critical findings count", async () => {
    const page = await browser().newPage();
    try {
      await page.setContent(CLEAN);
      expect(await graveAxeViolations(page)).toEqual([]);
      // The same document: axe stays loaded, and its next run reads the page as it is now.
      await page.evaluate(() => {
        const img = document.createElement("img");
        img.src = "data:image/gif;base64,R0lGODlhAQABAAAAACw=";
        img.id = "no-alt";
        document.querySelector("main")!.append(img);
        const faint = document.createElement("p");
        faint.id = "faint";
        faint.style.color = "#eeeeee";
        faint.textContent = "Barely there";
        document.querySelector("main")!.append(faint);
      });
      const grave = await graveAxeViolations(page);
      expect(grave).toContain("image-alt: #no-alt");
      expect(grave).toContain("color-contrast: #faint");
      // `include` narrows the run to one part of the page.
      expect(await graveAxeViolations(page, "h1")).toEqual([]);
      // A moderate finding (content outside a landmark) is reported by axe but does not fail the check.
      await page.evaluate(() => document.querySelectorAll("#no-alt, #faint").forEach((el) => el.remove()));
      await page.evaluate(() => document.body.append(Object.assign(document.createElement("p"), { id: "outside", textContent: "Outside the landmarks" })));
      const { violations } = await axeResults(page);
      expect(violations.map((v) => [v.id, v.impact])).toContainEqual(["region", "moderate"]);
      expect(await graveAxeViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("reports the same grave violations, node for node, as a full axe run that keeps every result type", async () => {
    // graveAxeViolations asks axe for violations only (resultTypes), which spares it building selectors
    // for passing nodes; the violations must not change. A page with several grave findings on several nodes each:
    const page = await browser().newPage();
    try {
      const img = '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">';
      await page.setContent(
        CLEAN.replace(
          "<p>Nothing wrong here.</p>",
          `<p>Nothing wrong here.</p>${img}${img}<p style="color:#eee">Faint one</p><p style="color:#ededed">Faint two</p><button></button><a href="/x"></a><input type="text"><select><option>a</option></select>`,
        ),
      );
      const full = await axeResults(page);
      expect(full.passes.some((rule) => rule.nodes.length > 1)).toBe(true);
      const fromFull = full.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
      expect(fromFull.length).toBeGreaterThanOrEqual(4);
      expect(fromFull.find((line) => line.startsWith("image-alt:"))?.split(", ")).toHaveLength(2);
      expect(fromFull.find((line) => line.startsWith("color-contrast:"))?.split(", ")).toHaveLength(2);
      expect(await graveAxeViolations(page)).toEqual(fromFull);
    } finally {
      await page.close();
    }
  });

  it("fails a page with a serious axe finding, and a page that scrolls sideways on a phone", async () => {
    const page = await browser().newPage();
    try {
      await page.setContent(CLEAN.replace("<p>Nothing wrong here.</p>", '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">'));
      await expect(checkPage(page, "no-alt", { folder: FOLDER })).rejects.toThrow(/no-alt at 1280: axe/);
      await page.setContent(CLEAN.replace("<p>Nothing wrong here.</p>", '<div style="width: 900px">Too wide for a phone</div>'));
      await expect(checkPage(page, "too-wide", { folder: FOLDER, widths: [PHONE] })).rejects.toThrow(/too-wide scrolls sideways at 390/);
      await page.setContent(CLEAN);
      await checkPage(page, "clean", { folder: FOLDER });
      // A failed state's screenshot is kept for whoever reads the failure; a passing one only with E2E_SCREENSHOTS=1.
      expect(existsSync(`${FOLDER}/no-alt-1280.png`)).toBe(true);
      expect(existsSync(`${FOLDER}/too-wide-390.png`)).toBe(true);
      expect(existsSync(`${FOLDER}/clean-1280.png`)).toBe(keepsEveryScreenshot());
    } finally {
      await page.close();
      rmSync(FOLDER, { recursive: true, force: true });
    }
  });

  it("puts the same axe into a page whose CSP forbids eval, and leaves that CSP as strict as it was", async () => {
    // The portal's and hub's policy (script-src 'self', no 'unsafe-eval'), served for a made-up origin.
    const page = await browser().newPage();
    try {
      await page.route("http://strict.page.test/", (route) =>
        route.fulfill({
          contentType: "text/html",
          headers: { "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'" },
          body: CLEAN.replace("<p>Nothing wrong here.</p>", '<p style="color:#eeeeee" id="faint">Barely there</p>'),
        }),
      );
      await page.goto("http://strict.page.test/");
      expect(await graveAxeViolations(page)).toEqual(["color-contrast: #faint"]);
      expect(await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.version)).toBe(axe.version);
      // Nothing of the packed source is left on the page, and the page's own code still may not eval.
      expect(await page.evaluate(() => "__axeSource" in window)).toBe(false);
      const pageEval = await page.evaluate(() => new Promise((resolve) => setTimeout(() => {
        try {
          resolve((0, eval)("'evaluated'"));
        } catch (error) {
          resolve((error as Error).name);
        }
      })));
      expect(pageEval).toBe("EvalError");
    } finally {
      await page.close();
    }
  });
});
