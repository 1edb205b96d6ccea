import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, inject } from "vitest";
import { launchChromium } from "./chromium";

export * from "./chromium";

/**
 * The Chromium of the calling file's lane, from the e2e global setup's broker (`chromiumBroker`): it
 * starts one Chromium server per lane on the first file that asks and gives each file its WebSocket
 * address, so the browser files of a lane share one Chromium instead of starting their own (a start
 * is about 1.3 s of CPU and 2-4 s of wall time on this machine). Each file still works in contexts of
 * its own, which are closed when it disconnects. Without the broker (another config), the file starts
 * its own Chromium.
 */
async function chromiumOfLane(): Promise<Browser> {
  let broker: string | undefined;
  try {
    broker = inject("chromiumBroker");
  } catch {
    broker = undefined;
  }
  if (!broker) return launchChromium();
  const slot = Number(process.env.VITEST_POOL_ID ?? "1");
  const res = await fetch(`${broker}/chromium/${slot}`);
  const text = await res.text();
  if (!res.ok) throw new Error(text);
  return chromium.connect(text);
}

/**
 * One Chromium for the calling test file: its lane's (see chromiumOfLane), connected before its tests
 * and let go after them, which closes every context and page the file opened; the answer reads it
 * inside a test.
 */
export function chromiumForFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await chromiumOfLane();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error("chromiumForFile(): Chromium starts in beforeAll; use it inside a test");
    return browser;
  };
}
