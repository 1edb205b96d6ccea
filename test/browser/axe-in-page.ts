import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { gzipSync } from "node:zlib";
import type { Page } from "playwright-core";

/**
 * axe-core's minified build (the same version and rules as `axe.source`, which is the 1.3 MB
 * unminified axe.js), gzipped and base64'd once per process: about 200 kB instead of 1.3 MB. What a
 * check cost was mostly the source crossing the DevTools protocol into each document (Chromium spent
 * about 100 ms of CPU receiving 580 kB, about 18 ms compiling and running it): per checked document,
 * 330-350 ms of Chromium's CPU with the full source against 170-185 ms this way (docs/testing.md,
 * "axe into the page, packed").
 */
const PACKED_AXE = gzipSync(readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"))).toString("base64");

/**
 * Puts axe into the page's current document. The source is unpacked in the page (DecompressionStream)
 * and kept on `window` for one moment, then evaluated in a second, synchronous evaluation: the
 * page's CSP forbids `eval` (no 'unsafe-eval' in `script-src`), and the DevTools protocol lifts that
 * only while its own evaluation runs, not after the `await` that unpacking needs.
 */
export async function putAxeIn(page: Page): Promise<void> {
  await page.evaluate(async (packed) => {
    const fromBase64 = (Uint8Array as unknown as { fromBase64?: (text: string) => Uint8Array<ArrayBuffer> }).fromBase64;
    const bytes = fromBase64 ? fromBase64(packed) : Uint8Array.from(atob(packed), (c) => c.charCodeAt(0));
    const inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    (window as unknown as { __axeSource?: string }).__axeSource = await new Response(inflated).text();
  }, PACKED_AXE);
  await page.evaluate(() => {
    const holder = window as unknown as { __axeSource?: string };
    const source = holder.__axeSource;
    delete holder.__axeSource;
    (0, eval)(source!);
  });
}
