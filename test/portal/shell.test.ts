import { describe, expect, it } from "vitest";
import { PRODUCTION } from "../helpers/api";
import { portal, signedInMember } from "../helpers/portal";
import { invite, portalJson, registerThroughInvitation, sessionCookieOf } from "../helpers/portal-ceremony";
import { createOrganisation, partnerWithKeys } from "../helpers/seed";
import { createLead } from "../leads/helpers";
import { landingOf } from "../../src/web/portal/access/deep-link";
import { auditOf } from "./partner/helpers";

const navOf = (html: string) => html.match(/<nav aria-label="Portal">(.*?)<\/nav>/s)?.[1] ?? null;
const unique = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}`;

describe("the page every portal page shares (issue 23 items 8, 13, 15)", () => {
  it("names the product in the title, starts with a skip link to main and marks the current page in the nav", async () => {
    const org = await createOrganisation("partner", "Shell Partner");
    const session = await signedInMember(org.id, "admin");
    const leads = await portal("GET", "/leads", { session });
    expect(leads.text).toContain("<title>Leads · Referral Funding Service portal</title>");
    expect(leads.text).toMatch(/<body class="sandbox"><a class="skip" href="#main">Skip to the page<\/a>/);
    expect(leads.text).toContain('<main id="main" tabindex="-1">');
    const nav = navOf(leads.text)!;
    expect(nav.match(/aria-current="page"/g)).toHaveLength(1);
    expect(nav).toContain('<a href="/portal/leads" aria-current="page">Leads</a>');
    // The deeper page of a section marks its section; "New lead" marks itself, not Leads.
    expect(navOf((await portal("GET", "/leads/new", { session })).text)).toContain('<a href="/portal/leads/new" aria-current="page">New lead</a>');
    expect(navOf((await portal("GET", "/leads/new", { session })).text)).toContain('<a href="/portal/leads">Leads</a>');
    expect(navOf((await portal("GET", "/", { session })).text)).toContain('<a href="/portal" aria-current="page">Overview</a>');
    expect(navOf((await portal("GET", "/members", { session })).text)).toContain('<a href="/portal/members" aria-current="page">Members</a>');
  });

  it("a wrong address and another organisation's record: 404 inside the header and nav, saying what to do next and nothing about the record", async () => {
    const other = await partnerWithKeys();
    const theirs = await createLead(other.sandbox.key);
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    for (const path of ["/no-such-page", `/leads/${theirs.id}`, `/leads/${crypto.randomUUID()}`]) {
      const res = await portal("GET", path, { session });
      expect(res.status).toBe(404);
      expect(res.text).toContain("<title>Not found · Referral Funding Service portal</title>");
      expect(navOf(res.text)).toContain('<a href="/portal/leads">Leads</a>');
      expect(res.text).toContain("Sign out");
      expect(res.text).toContain("What to do next:");
      expect(res.text).toContain("you are in sandbox");
      expect(res.text).not.toContain(theirs.reference);
      expect(res.headers.get("Cache-Control")).toBe("no-store");
    }
    // A member is not shown admin pages in the list of places either, and an admin page is the same 404.
    const members = await portal("GET", "/members", { session });
    expect(members.status).toBe(404);
    expect(members.text).not.toContain('href="/portal/members"');
  });

  it("signed out, a deep link goes to sign-in carrying the page into the verify call", async () => {
    const asked = await portal("GET", "/leads?q=abc");
    expect(asked.status).toBe(303);
    expect(asked.headers.get("Location")).toBe(`/portal/sign-in?next=${encodeURIComponent("/portal/leads?q=abc")}`);
    const page = await portal("GET", `/sign-in?next=${encodeURIComponent("/portal/leads?q=abc")}`);
    expect(page.text).toContain(`data-verify-url="/portal/sign-in/verify?next=${encodeURIComponent("/portal/leads?q=abc")}"`.replace(/&/g, "&amp;"));
    expect(page.text).toContain("you will land on it once signed in");
    // Another site is never a landing: the page falls back to a plain sign-in.
    expect((await portal("GET", `/sign-in?next=${encodeURIComponent("https://evil.example/portal/x")}`)).text).toContain('data-verify-url="/portal/sign-in/verify"');

  });

  it("keeps a landing on the portal: other hosts, protocol-relative and sign-in itself fall back to the overview", () => {
    expect(landingOf("/portal/leads/abc?done=1")).toBe("/portal/leads/abc?done=1");
    for (const bad of [null, "", "https://evil.example/portal/", "//evil.example/portal/", "/portal\\..\\x", "/elsewhere", "/portal/sign-in?next=/portal/x", "/portalx"]) expect(landingOf(bad)).toBe("/portal");
    expect(landingOf("/portal/../admin")).toBe("/portal");
  });

  it("a used or unknown invitation link keeps a header with sign-in and says what to do next; signing out says so", async () => {
    const org = await createOrganisation("partner");
    const { token } = await invite(org.id, "member");
    const { passkey } = await registerThroughInvitation(token);
    // The verified sign-in lands where the deep link pointed.
    const address = unique();
    const options = await portalJson("/sign-in/options", {}, { "CF-Connecting-IP": address });
    const response = await passkey.authenticate(options.body.options, PRODUCTION);
    const verified = await portalJson(`/sign-in/verify?next=${encodeURIComponent("/portal/leads?q=abc")}`, { challenge_id: options.body.challenge_id, response }, { "CF-Connecting-IP": address });
    expect(verified.status).toBe(200);
    expect(verified.body.redirect).toBe("/portal/leads?q=abc");
    expect(sessionCookieOf(verified.headers)).toBeTruthy();
    for (const link of [`/invitations/${token}`, `/invitations/${"x".repeat(43)}`]) {
      const gone = await portal("GET", link);
      expect(gone.status).toBe(404);
      expect(gone.text).toContain("This invitation link no longer works");
      expect(gone.text).toContain("What to do next:");
      expect(gone.text).toContain('<a href="/portal/sign-in">Sign in</a>');
    }

    const session = await signedInMember(org.id);
    const out = await portal("POST", "/sign-out", { session, form: {} });
    expect(out.headers.get("Location")).toBe("/portal/sign-in?notice=signed-out");
    const signIn = await portal("GET", "/sign-in?notice=signed-out");
    expect(signIn.text).toContain("You are signed out.");
    expect((await auditOf(org.id)).map((a) => a.action)).toContain("session.ended");
  }, 60_000);

  it("puts the outcome of an action first in main, focusable, marked for the script that brings it into view", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);
    const page = await portal("GET", "/members?notice=revoked", { session });
    expect(page.text).toContain('<main id="main" tabindex="-1"><h1>Members</h1><p class="notice" role="status" id="outcome" tabindex="-1" data-outcome');
    const script = await portal("GET", "/assets/forms.js");
    expect(script.text).toContain('document.querySelector("[data-outcome]")');
  });

  it("issue 45 item 11: the passkeys page marks its place in the header (aria-current), and no other page does", async () => {
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const passkeys = await portal("GET", "/passkeys", { session });
    expect(passkeys.text).toMatch(/<a href="\/portal\/passkeys" aria-label="[^"]+: your passkeys" aria-current="page">/);
    expect((await portal("GET", "/", { session })).text).not.toMatch(/href="\/portal\/passkeys"[^>]*aria-current/);
  });
});
