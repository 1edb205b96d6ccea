import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { operator } from "../e2e/client";
import { launchChromium } from "./browser";
import { signInWithNewPasskey } from "./portal-sign-in";

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe("portal access in a browser", () => {
  it("registers a passkey from an invitation and lands signed in", { timeout: 90_000 }, async () => {
    const org = (await operator("POST", "/organisations", { name: `Browser Partner ${Date.now()}`, kind: "partner" })).body;
    const context = await browser.newContext();
    const page = await signInWithNewPasskey(context, { baseUrl: inject("baseUrl"), adminToken: inject("adminToken"), organisationId: org.id });
    expect(await page.textContent("header")).toContain(org.name);
    await context.close();
  });
});
