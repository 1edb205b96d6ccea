import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseUrl, operator } from "../e2e/client";
import { DESKTOP } from "./page-checks";
import { portalWalk } from "./portal-walk";

// Issue 21 items 7 and 8 in Chromium, signed in with a real passkey:
// 7. a New lead form opened in sandbox, with the session switched to live in another tab, is
//    refused with a page that says so, and no lead exists in either environment;
// 8. Save and check your answers (once Save and submit) clicked twice makes one lead: the button disables itself and says it is
//    sending while the post is in flight, and the server acts once per rendered form.

// One Chromium for the file and a signed-in person per test: the shared walk setup (portal-walk.ts).
const walk = portalWalk();

async function signedInPartner() {
  const organisation = (await operator("POST", "/organisations", { name: `Forms ${Date.now()}`, kind: "partner" })).body;
  const { context, page } = await walk.signIn(organisation.id, "member", { viewport: DESKTOP });
  return { context, page };
}

const input = (page: Page, name: string) => page.locator(`[name="${name}"]`);

async function fillLead(page: Page, name: string) {
  await input(page, "country").selectOption("GB");
  await input(page, "business.name").fill(name);
  await input(page, "business.company_number").fill("07654321");
  await input(page, "business.entity_type").selectOption("private_limited_company");
  await input(page, "business.industry").selectOption("retail");
  await input(page, "contact.first_name").fill("Grace");
  await input(page, "contact.last_name").fill("Hopper");
  await input(page, "contact.email").fill("grace@widgets.example");
  await input(page, "funding.amount").fill("40000");
  await input(page, "funding.purpose").selectOption("working_capital");
  await input(page, "trading.monthly_revenue").fill("30000");
  await input(page, "trading.tib_months").fill("48");
  await input(page, "consent.obtained").check();
}

async function leadCount(page: Page) {
  await page.goto(`${baseUrl()}/portal/leads`);
  await page.getByRole("heading", { name: "Leads" }).waitFor();
  // Each row carries its reference in the one copy control (a read-only field named after it).
  return page.getByRole("textbox", { name: /^The lead reference RF-/ }).count();
}

describe("issue 21 items 7 and 8: portal forms in a browser", () => {
  it("item 7: a sandbox form posted after another tab switched to live is refused and nothing is written", { timeout: 180_000 }, async () => {
    const { context, page } = await signedInPartner();
    await page.goto(`${baseUrl()}/portal/leads/new`);
    await page.getByRole("heading", { name: "New lead" }).waitFor();
    expect(await page.locator("body").getAttribute("class")).toBe("sandbox");
    await fillLead(page, "Two Tabs Ltd");

    const other = await context.newPage();
    await other.goto(`${baseUrl()}/portal`);
    // Switching to live asks first (issue 23 item 7): the header's link, then the confirm page's button.
    await other.getByRole("link", { name: "Switch to live" }).click();
    await other.getByRole("button", { name: "Switch to live" }).click();
    await other.waitForURL((u) => u.pathname === "/portal");
    expect(await other.locator("body").getAttribute("class")).toBe("live");

    await page.getByRole("button", { name: "Save and check your answers" }).click();
    await page.getByRole("heading", { name: "Environment changed" }).waitFor();
    const text = await page.locator("main").innerText();
    expect(text).toContain("opened in the Sandbox environment");
    expect(text).toContain("now shows the Live environment");
    expect(text).toContain("Nothing was saved");

    expect(await leadCount(other)).toBe(0);
    await other.getByRole("button", { name: "Switch to sandbox" }).click();
    await other.waitForURL((u) => u.pathname === "/portal");
    expect(await leadCount(other)).toBe(0);
  });

  it("item 8: Save and check your answers clicked twice makes one lead; the button shows progress and disables itself", { timeout: 180_000 }, async () => {
    const { page } = await signedInPartner();
    await page.goto(`${baseUrl()}/portal/leads/new`);
    await page.getByRole("heading", { name: "New lead" }).waitFor();
    await fillLead(page, "Double Click Ltd");

    // Hold the post for a moment so the in-flight state can be seen.
    let posts = 0;
    await page.route("**/portal/leads/new", async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      posts += 1;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.continue();
    });
    // Two clicks in a row on Save and check your answers; 30 ms later the page notes what the button shows
    // (in sessionStorage, which survives the navigation the post starts).
    await page.evaluate(() => {
      setTimeout(() => {
        const button = Array.from(document.querySelectorAll("button")).find((b) => b.textContent?.trim() === "Save and check your answers")!;
        button.click();
        button.click();
        setTimeout(() => sessionStorage.setItem("item8", JSON.stringify({ text: button.textContent, disabled: button.disabled, busy: button.form?.getAttribute("aria-busy") })), 30);
      }, 0);
    });
    await page.getByRole("heading", { name: "Check your answers before submitting" }).waitFor();
    expect(JSON.parse((await page.evaluate(() => sessionStorage.getItem("item8")))!)).toEqual({ text: "Sending…", disabled: true, busy: "true" });
    expect(posts).toBe(1);
    await page.unroute("**/portal/leads/new");
    expect(await leadCount(page)).toBe(1);

    // The server rule: the same rendered form, re-sent by the browser without the script's help, acts once.
    await page.goto(`${baseUrl()}/portal/leads/new`);
    await fillLead(page, "Resent Ltd");
    const formToken = await input(page, "_form_token").first().inputValue();
    const body = await page.locator("form:has(button[value=check])").evaluate((form) => new URLSearchParams(new FormData(form as HTMLFormElement) as any).toString());
    const send = () => page.evaluate(async (b) => (await fetch("/portal/leads/new", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: `${b}&intent=check`, redirect: "manual" })).type, body);
    expect(formToken.startsWith("sandbox.")).toBe(true);
    await Promise.all([send(), send()]);
    // One lead from the double click above, one from the two identical posts.
    expect(await leadCount(page)).toBe(2);
  });
});
