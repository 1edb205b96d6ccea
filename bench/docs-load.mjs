#!/usr/bin/env node
// `npm run bench:docs`: what /docs costs a browser (issue 24 item 7). Starts `wrangler dev`, opens
// /docs in headless Chromium (CHROMIUM_PATH, else /usr/bin/chromium) with an empty cache, LOADS times
// (5), each in a fresh browser context, and reports the medians of: the bytes the reference's script
// took on the wire (CDP's encodedDataLength) beside its decoded size, first contentful paint, and the
// time until Scalar has rendered the reference. A reload in the same context shows what the cache
// keeps. Prints JSON; timing is never checked in the test suite.
import { chromium } from "playwright-core";
import { startBenchService } from "./lib/setup.mjs";

const LOADS = Number(process.env.LOADS) || 5;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function load(page, cdp, url) {
  const scripts = new Map();
  const onResponse = (e) => {
    const header = (name) => Object.entries(e.response.headers).find(([k]) => k.toLowerCase() === name)?.[1] ?? null;
    if (/\/docs\/scalar[.\w]*\.js/.test(e.response.url)) scripts.set(e.requestId, { url: e.response.url, status: e.response.status, fromCache: e.response.fromDiskCache || e.response.fromMemoryCache, encoding: header("content-encoding"), cacheControl: header("cache-control") });
  };
  const onFinished = (e) => {
    const s = scripts.get(e.requestId);
    if (s) s.transferBytes = e.encodedDataLength;
  };
  const onData = (e) => {
    const s = scripts.get(e.requestId);
    if (s) s.decodedBytes = (s.decodedBytes ?? 0) + e.dataLength;
  };
  cdp.on("Network.responseReceived", onResponse);
  cdp.on("Network.loadingFinished", onFinished);
  cdp.on("Network.dataReceived", onData);
  const started = Date.now();
  await page.goto(url, { waitUntil: "commit" });
  // Scalar has rendered the reference when the partner API's first operation is on the page.
  await page.getByText("Exchange an API key for a one-hour bearer token").first().waitFor({ state: "attached", timeout: 120_000 });
  const rendered = Date.now() - started;
  await page.waitForLoadState("load");
  const fcp = await page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null);
  cdp.off("Network.responseReceived", onResponse);
  cdp.off("Network.loadingFinished", onFinished);
  cdp.off("Network.dataReceived", onData);
  return { rendered_ms: rendered, fcp_ms: fcp, script: [...scripts.values()][0] ?? null };
}

const service = await startBenchService({ prefix: "rfs-docs-load-" });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  // One unmeasured visit builds the /docs door and reads the script's hash in the Worker.
  await (await fetch(`${service.url}/docs`)).text();
  const cold = [];
  let reload = null;
  for (let i = 0; i < LOADS; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    cold.push(await load(page, cdp, `${service.url}/docs`));
    if (i === 0) reload = await load(page, cdp, `${service.url}/docs`);
    await context.close();
  }
  const result = {
    loads: LOADS,
    script: cold[0].script,
    script_transfer_bytes: median(cold.map((l) => l.script?.transferBytes ?? NaN)),
    script_decoded_bytes: median(cold.map((l) => l.script?.decodedBytes ?? NaN)),
    fcp_ms_median: median(cold.map((l) => l.fcp_ms)),
    rendered_ms_median: median(cold.map((l) => l.rendered_ms)),
    cold_runs: cold.map((l) => ({ fcp_ms: Math.round(l.fcp_ms), rendered_ms: l.rendered_ms, transfer: l.script?.transferBytes })),
    reload_same_context: reload && { fcp_ms: Math.round(reload.fcp_ms), rendered_ms: reload.rendered_ms, script: reload.script },
  };
  console.log(JSON.stringify(result, null, 2));
} finally {
  await browser.close();
  await service.close();
}
