import { describe, expect, it } from "vitest";
import { portal, signedInMember } from "../../helpers/portal";
import { createOrganisation, issueKey } from "../../helpers/seed";

const snippetOf = (html: string) => html.match(/<textarea[^>]*class="snippet"[^>]*>([\s\S]*?)<\/textarea>/)?.[1] ?? null;
const unescape = (text: string) => text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&");

describe("the prequalification form for a partner's website, in the portal", () => {
  it("gives the whole snippet once, with the new publishable key and its allowed origins", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);
    const created = await portal("POST", "/keys", { session, form: { type: "publishable", allowed_origins: "https://accountants.example" } });
    expect(created.status).toBe(201);
    const snippet = unescape(snippetOf(created.text)!);
    const key = snippet.match(/publishable-key="(rfs_pub_sandbox_[a-z0-9_]+)"/)![1];
    expect(snippet).toBe(`<script type="module" src="http://api.test/embed/v1/prequalify.js"></script>\n<rfs-prequalify publishable-key="${key}" locale="en-GB"></rfs-prequalify>`);
    expect(created.text).toContain("https://accountants.example");
  });

  it("lists the environment's publishable keys with their origins, never a key's secret part", async () => {
    const org = await createOrganisation("partner");
    const { key } = await issueKey(org.id, "sandbox", "publishable", ["https://shop.example"]);
    await issueKey(org.id, "live", "publishable", ["https://live.example"]);
    const session = await signedInMember(org.id, "member");
    const page = await portal("GET", "/website-form", { session });
    expect(page.status).toBe(200);
    const clientId = key.slice(0, key.lastIndexOf("_"));
    expect(unescape(snippetOf(page.text)!)).toContain(`publishable-key="${clientId}_…"`);
    expect(page.text).toContain("https://shop.example");
    expect(page.text).not.toContain("https://live.example");
    expect(page.text).not.toContain(key);
  });

  it("says how to get a key when there is none, and is not a lender's page", async () => {
    const org = await createOrganisation("partner");
    const page = await portal("GET", "/website-form", { session: await signedInMember(org.id) });
    expect(page.text).toMatch(/No publishable key in this environment yet/);
    const lender = await createOrganisation("lender");
    expect((await portal("GET", "/website-form", { session: await signedInMember(lender.id) })).status).toBe(404);
  });
});
