import { describe, expect, it } from "vitest";
import { baseUrl, newPartner } from "../e2e/client";
import { checkPage, portalWalk } from "./portal-walk";

// Issue 23: a partner's member (not an admin) sees only what a member may. The navigation links no
// admin page (API keys, Webhooks, Members, Audit log); each of those answers 404, not 403, inside the
// portal's header and navigation, saying what to do next; the pages a member may use work. Each page
// is checked at 1280 and 390 (no sideways scroll, axe; a screenshot if that fails); two are kept in docs/portal/.
const walk = portalWalk();

const ADMIN_PAGES = [
  ["API keys", "/portal/keys"],
  ["Webhooks", "/portal/webhooks"],
  ["Members", "/portal/members"],
  ["Audit log", "/portal/audit"],
] as const;

describe("a partner's member in the portal", () => {
  it("sees no admin page nor control, gets 404 in the shell for them, and uses the member's pages", { timeout: 300_000 }, async () => {
    const partner = await newPartner();
    const { context, page, nav } = await walk.signIn(partner.org.id, "member");
    await page.getByRole("heading", { name: "Overview" }).waitFor();
    const links = (await nav.getByRole("link").allTextContents()).map((t) => t.trim());
    expect(links).toEqual(["Overview", "Leads", "New lead", "Prequalification", "Events"]);
    for (const [label] of ADMIN_PAGES) expect(await page.getByRole("link", { name: label, exact: true }).count(), label).toBe(0);
    expect(await page.getByRole("button", { name: /Create key|Invite|Remove/ }).count()).toBe(0);
    // Remove and Revoke are links to their confirm pages (issue 23 item 7): none for a member either.
    expect(await page.getByRole("link", { name: /^(Remove|Revoke|Delete this endpoint)$/ }).count()).toBe(0);
    await checkPage(page, "member-overview", true);

    // Every admin page: 404 (not 403), drawn inside the header and navigation, with what to do next.
    for (const [label, path] of ADMIN_PAGES) {
      const res = await page.goto(`${baseUrl()}${path}`);
      expect(res!.status(), path).toBe(404);
      expect(await nav.count(), `${path} keeps the navigation`).toBe(1);
      expect(await page.getByRole("button", { name: "Sign out" }).count(), `${path} keeps the header`).toBe(1);
      expect(await page.locator("main").textContent(), path).not.toContain(label === "Members" ? "Invite" : "Create");
      expect(await page.locator("h1").count()).toBe(1);
    }
    expect(await page.locator("main").textContent()).toMatch(/address|menu|environment/i);
    await checkPage(page, "member-not-found", true);

    // The pages a member may use work.
    for (const [label, heading] of [["Leads", "Leads"], ["New lead", "New lead"], ["Prequalification", "Prequalification"], ["Events", "Events"]] as const) {
      await nav.getByRole("link", { name: label, exact: true }).click();
      await page.getByRole("heading", { name: heading, exact: true }).waitFor();
      expect(await nav.getByRole("link", { name: label, exact: true }).getAttribute("aria-current")).toBe("page");
    }
    await page.goto(`${baseUrl()}/portal/leads`);
    await checkPage(page, "member-leads");
    await context.close();
  });
});
