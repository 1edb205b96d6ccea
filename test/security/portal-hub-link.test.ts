/**
 * Issue 21 item 6 (remainder), the portal's "New hub link": the lead page's button leads to the kit's
 * confirm page ("the old link stops working"); its post rotates the link through the API's own service,
 * shows the new link with a copy button, and the old link is dead. The form token is single-use and
 * bound to the environment it was rendered for, as every portal form's.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PRODUCTION } from "../helpers/api";
import { portal, signedInMember } from "../helpers/portal";
import { createOrganisation } from "../helpers/seed";
import { auditOf, completeUkForm, leadIdsOf } from "../portal/partner/helpers";
import { hubCall } from "../hub/helpers";

const tokenOn = (html: string) => html.match(/name="_form_token" value="([^"]+)"/)![1]!;
const hubLinkOn = (html: string) => html.match(/http:\/\/[^"<\s]+\/hub\/[^"<\s]+/)![0]!;

/** A link's first visit, as a browser's: 303 with the cookie for a working link, 404 for a dead one. */
const visit = async (url: string) => {
  const res = await exports.default.fetch(new Request(`${PRODUCTION}${new URL(url).pathname}`, { redirect: "manual" }));
  await res.text();
  return res.status;
};

async function partnerWithLead() {
  const org = await createOrganisation("partner");
  const session = await signedInMember(org.id);
  const form = await portal("GET", "/leads/new", { session });
  const saved = await portal("POST", "/leads/new", { session, form: { ...completeUkForm(), intent: "save" }, formToken: tokenOn(form.text) });
  expect(saved.status).toBe(303);
  const [leadId] = await leadIdsOf(org.id);
  const page = await portal("GET", `/leads/${leadId}`, { session });
  expect(page.status).toBe(200);
  return { org, session, leadId: leadId!, page, oldLink: hubLinkOn(page.text) };
}

describe("issue 45 item 9: the adviser named on the client hub", () => {
  it("names the member who opened the lead, by the name they set, with the firm; the firm alone without a name", async () => {
    const { org, session, oldLink } = await partnerWithLead();
    const hubPath = new URL(oldLink).pathname;
    const firmOnly = await hubCall("GET", hubPath);
    expect(firmOnly.text).toContain(`Your adviser: <strong><bdi>${org.name}</bdi></strong>`);
    const settings = await portal("GET", "/settings", { session });
    const saved = await portal("POST", "/settings", { session, form: { display_name: "Ada Lovelace", time_zone: "UTC" }, formToken: tokenOn(settings.text) });
    expect(saved.status).toBe(303);
    const named = await hubCall("GET", hubPath);
    expect(named.text).toContain(`Your adviser: <strong><bdi>Ada Lovelace, ${org.name}</bdi></strong>`);
  });
});

describe("issue 21 item 6: the portal's New hub link", () => {
  it("item 6: the lead page's button opens a confirm page; its post shows the new link with a copy button, and the old link dies", async () => {
    const { org, session, leadId, page, oldLink } = await partnerWithLead();
    expect(page.text).toContain(`href="/portal/leads/${leadId}/hub-link"`);
    expect(await visit(oldLink)).toBe(303);

    const confirm = await portal("GET", `/leads/${leadId}/hub-link`, { session });
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain("Make a new hub link for this lead?");
    expect(confirm.text).toContain("The old link stops working at once");
    expect(confirm.text).toContain(`action="/portal/leads/${leadId}/hub-link"`);

    const rotated = await portal("POST", `/leads/${leadId}/hub-link`, { session, form: {}, formToken: tokenOn(confirm.text) });
    expect(rotated.status).toBe(200);
    const newLink = hubLinkOn(rotated.text);
    expect(newLink).not.toBe(oldLink);
    expect(rotated.text).toContain("Copy it and send it to your client");
    expect(rotated.text).toContain("The old link no longer works");
    expect(rotated.text).toContain('data-copy="copy-new-hub-link"');
    expect(rotated.headers.get("Cache-Control")).toContain("no-store");

    expect(await visit(oldLink)).toBe(404);
    expect(await visit(newLink)).toBe(303);
    expect(await auditOf(org.id)).toContainEqual(expect.objectContaining({ action: "lead.hub_link_rotated", target: leadId }));
    // The lead page now shows the new link, never the old one.
    const after = await portal("GET", `/leads/${leadId}`, { session });
    expect(after.text).toContain(newLink);
    expect(after.text).not.toContain(oldLink);
  });

  it("item 6: the confirm page's form token is single-use: a second post makes no second link and shows no link", async () => {
    const { session, leadId } = await partnerWithLead();
    const confirm = await portal("GET", `/leads/${leadId}/hub-link`, { session });
    const token = tokenOn(confirm.text);
    const first = await portal("POST", `/leads/${leadId}/hub-link`, { session, form: {}, formToken: token });
    expect(first.status).toBe(200);
    const firstLink = hubLinkOn(first.text);
    const second = await portal("POST", `/leads/${leadId}/hub-link`, { session, form: {}, formToken: token });
    expect(second.status).toBe(409);
    expect(second.text).not.toMatch(/\/hub\/lead_/);
    // The first answer's link is still the working one: the second post rotated nothing.
    expect(await visit(firstLink)).toBe(303);
  });

  it("item 6: a confirm page rendered in sandbox, posted after the session switched to live, is refused and rotates nothing", async () => {
    const { session, leadId, oldLink } = await partnerWithLead();
    const confirm = await portal("GET", `/leads/${leadId}/hub-link`, { session });
    const otherTab = await portal("GET", "/", { session });
    expect((await portal("POST", "/environment", { session, form: { environment: "live" }, formToken: tokenOn(otherTab.text) })).status).toBe(303);
    const posted = await portal("POST", `/leads/${leadId}/hub-link`, { session, form: {}, formToken: tokenOn(confirm.text) });
    expect(posted.status).toBe(409);
    expect(posted.text).toContain("Environment changed");
    expect(await visit(oldLink)).toBe(303);
    // From live, the sandbox lead is unknown: 404, as another organisation's.
    expect((await portal("GET", `/leads/${leadId}/hub-link`, { session })).status).toBe(404);
  });

  it("item 6: another organisation's lead is a 404 on the confirm page and the post, and its link keeps working", async () => {
    const { leadId, oldLink } = await partnerWithLead();
    const stranger = await signedInMember((await createOrganisation("partner")).id);
    expect((await portal("GET", `/leads/${leadId}/hub-link`, { session: stranger })).status).toBe(404);
    expect((await portal("POST", `/leads/${leadId}/hub-link`, { session: stranger, form: {} })).status).toBe(404);
    expect(await visit(oldLink)).toBe(303);
  });
});
