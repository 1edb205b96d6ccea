// The guides of docs/ as pages of the reference: rendered at build time into
// src/api/reference/guides.generated.ts (current with docs/), served under /docs/guides, linked from
// the reference's notes, from its sidebar (the documents' `info.description`) and wherever it names one.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GUIDES, guidesSource } from "../../scripts/lib/guides.mjs";
import { baseUrl } from "./client";

const get = (path: string) => fetch(`${baseUrl()}${path}`);
const DOCUMENTS = ["/partner/v1/openapi.json", "/v1/openapi.json"];

describe("the guides under /docs/guides", () => {
  it("the committed module is what npm run guides:build makes from docs/ now", () => {
    const current = guidesSource((file: string) => readFileSync(file, "utf8"));
    expect(readFileSync("src/api/reference/guides.generated.ts", "utf8") === current, "stale: run npm run guides:build").toBe(true);
  });

  it("serves every guide as an HTML page with anchored headings and links between guides", async () => {
    for (const { slug, title } of GUIDES) {
      const res = await get(`/docs/guides/${slug}`);
      expect(res.status, slug).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html).toContain(`<title>${title} · Referral Funding Service</title>`);
      expect(html).toMatch(/<h1 id="[a-z-]+">/);
      expect(html).not.toMatch(/href="[^"]*\.md[#"]/); // no link left to a Markdown file
    }
    const webhooks = await (await get("/docs/guides/webhooks")).text();
    expect(webhooks).toContain('id="listening-locally-npm-run-listen"');
    const leads = await (await get("/docs/guides/leads")).text();
    expect(leads).toContain('href="/docs/guides/lender-api#routing-on-submit"');
    const index = await (await get("/docs/guides")).text();
    for (const { slug } of GUIDES) expect(index).toContain(`href="/docs/guides/${slug}"`);
  });

  it("answers an unknown guide with a 404 problem", async () => {
    const res = await get("/docs/guides/nothing-here");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  });

  it("is linked from the reference's notes, its sidebar and every place it names a guide, and every link answers", async () => {
    const page = await (await get("/docs")).text();
    for (const { slug } of GUIDES) expect(page).toContain(`href="/docs/guides/${slug}"`);
    const linked = new Set<string>();
    for (const path of DOCUMENTS) {
      const document = await (await get(path)).json();
      expect(document.info.description).toMatch(/## Guides\n/);
      const text = JSON.stringify(document);
      // A guide named by its file is a link to its page: `docs/webhooks.md` never stands alone.
      const slugs = new Set(GUIDES.map((g) => g.slug));
      const bare = [...text.matchAll(/docs\/([a-z-]+)\.md/g)]
        .filter((m) => slugs.has(m[1]) && !text.slice(Math.max(0, m.index - 200), m.index).includes(`](/docs/guides/${m[1]}`))
        .map((m) => text.slice(Math.max(0, m.index - 80), m.index + 20));
      expect(bare).toEqual([]);
      for (const [, slug] of text.matchAll(/\/docs\/guides\/([a-z-]+)/g)) linked.add(slug);
      expect((text.match(/\[Webhooks\]\(\/docs\/guides\/webhooks\)/g) ?? []).length).toBeGreaterThan(3);
    }
    for (const slug of linked) expect((await get(`/docs/guides/${slug}`)).status, slug).toBe(200);
  });
});
