/**
 * Issue 21 item 7, "A form acts on whatever environment the session is in now": every portal form
 * carries the environment it was rendered for inside its HMAC form token; a post whose environment
 * differs from the session's is refused with a page that says so and nothing is written. The
 * sandbox host serves sandbox data only in the portal, the hub and file links.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { linksFor } from "../../src/services/views/links";
import { ownAddress, SANDBOX, throughEdge } from "../helpers/api";
import { followRefused, portal, signedInMember } from "../helpers/portal";
import { createOrganisation } from "../helpers/seed";
import { hubLead } from "../hub/helpers";
import { completeUkForm, leadIdsOf } from "../portal/partner/helpers";
import { inData } from "../helpers/data-db";

/** The form token of the page as the browser received it. */
const tokenOn = (html: string) => html.match(/name="_form_token" value="([^"]+)"/)![1];

describe("issue 21 item 7: a form acts only in the environment it was rendered for", () => {
  it("item 7: a New lead form opened in sandbox, posted after another tab switched to live, is refused and writes nothing", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);
    const sandboxPage = await portal("GET", "/leads/new", { session });
    expect(sandboxPage.text).toContain('class="sandbox"');
    const sandboxToken = tokenOn(sandboxPage.text);

    // Another tab: the session switches to live.
    const otherTab = await portal("GET", "/", { session });
    expect((await portal("POST", "/environment", { session, form: { environment: "live" }, formToken: tokenOn(otherTab.text) })).status).toBe(303);

    const posted = await portal("POST", "/leads/new", { session, form: { ...completeUkForm(), intent: "check" }, formToken: sandboxToken });
    expect(posted.status).toBe(409);
    expect(posted.text).toContain("opened in the Sandbox environment");
    expect(posted.text).toContain("now shows the Live environment");
    expect(posted.text).toContain("Nothing was saved");
    expect(await leadIdsOf(org.id)).toEqual([]);

    // The same form rendered for live goes through.
    const livePage = await portal("GET", "/leads/new", { session });
    const created = await portal("POST", "/leads/new", { session, form: { ...completeUkForm(), intent: "save" }, formToken: tokenOn(livePage.text) });
    expect(created.status).toBe(303);
    const ids = await leadIdsOf(org.id);
    expect(ids).toHaveLength(1);
    expect((await inData.prepare("select environment from leads where id = ?").bind(ids[0]).first<{ environment: string }>())?.environment).toBe("live");
  });

  it("item 7: the token's environment cannot be edited: a live token made from a sandbox one is refused as forged", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);
    const token = tokenOn((await portal("GET", "/leads/new", { session })).text);
    expect(token.startsWith("sandbox.")).toBe(true);
    const edited = token.replace(/^sandbox\./, "live.");
    const refused = await portal("POST", "/environment", { session, form: { environment: "live" }, formToken: edited });
    expect(refused.status).toBe(403);
  });

  it("item 7: on the sandbox host the portal shows sandbox only and refuses a switch to live", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);
    const page = await portal("GET", "/", { session });
    expect((await portal("POST", "/environment", { session, form: { environment: "live" }, formToken: tokenOn(page.text) })).status).toBe(303);

    const onSandboxHost = (path: string, init: RequestInit = {}) =>
      exports.default.fetch(new Request(`${SANDBOX}/portal${path}`, { redirect: "manual", ...init, headers: { Cookie: session.cookie, "Sec-Fetch-Site": "same-origin", ...init.headers } }));
    const shownRes = await onSandboxHost("");
    const shown = await shownRes.text();
    expect(shownRes.status, shown.slice(0, 300)).toBe(200);
    expect(shown).toContain('<body class="sandbox">');
    const switchBack = await onSandboxHost("/environment", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ environment: "live", _form_token: tokenOn(shown) }).toString(),
    });
    // Refused, it is answered 303 to the portal's page on the same host, which shows the refusal once.
    const refused = await followRefused(switchBack, session.cookie, { origin: SANDBOX });
    expect(refused.via).toMatch(/^\/portal\?refused=/);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("sandbox data only");
  });

  it("item 7: on the sandbox host a live lead's hub link and a live file link are unknown (404)", async () => {
    const { hub } = await hubLead();
    // From an address of its own: hub requests without one count against the bucket every file shares.
    const address = ownAddress();
    expect((await exports.default.fetch(new Request(`http://api.test${hub}`, { redirect: "manual", headers: address, ...throughEdge(address) }))).status).toBe(303); // the live host trades the token for a session cookie
    expect((await exports.default.fetch(new Request(`${SANDBOX}${hub}`, { headers: address, ...throughEdge(address) }))).status).toBe(404);

    const key = `deals/live/DL-ITEM7/agreement-test.pdf`;
    await env.DOCUMENTS.put(key, "%PDF-1.7\n%%EOF\n");
    const link = new URL(await linksFor(env).file(key));
    expect((await exports.default.fetch(new Request(`http://api.test${link.pathname}${link.search}`))).status).toBe(200);
    expect((await exports.default.fetch(new Request(`${SANDBOX}${link.pathname}${link.search}`))).status).toBe(404);
  });
});
