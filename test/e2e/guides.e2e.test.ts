// The guides of docs/ as pages of the reference: rendered at build time into
// src/api/reference/guides.generated.ts (current with docs/), served under /docs/guides, linked from
// the reference's notes, from its sidebar (the documents' `info.description`) and wherever it names one.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
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

  // Issue 23 item 5: the portal guide showed broken images (its `portal/*.png` had no route).
  it("every <img> of every served guide answers 200 image/png", async () => {
    let images = 0;
    for (const { slug } of GUIDES) {
      const html = await (await get(`/docs/guides/${slug}`)).text();
      for (const [, src] of html.matchAll(/<img [^>]*src="([^"]+)"/g)) {
        const url = new URL(src, `${baseUrl()}/docs/guides/${slug}`);
        expect(url.origin, `${slug}: ${src}`).toBe(new URL(baseUrl()).origin);
        const res = await fetch(url);
        expect(res.status, `${slug}: ${src}`).toBe(200);
        expect(res.headers.get("content-type"), `${slug}: ${src}`).toBe("image/png");
        const bytes = new Uint8Array(await res.arrayBuffer());
        expect([...bytes.slice(0, 8)], `${slug}: ${src} is a PNG`).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
        images++;
      }
    }
    expect(images).toBeGreaterThan(0);
    const missing = await get("/docs/guides/portal/no-such-image.png");
    expect(missing.status).toBe(404);
  });

  // Issue 23 item 4: docs/portal.md shows each page with one screenshot, kept in docs/portal/.
  it("docs/portal.md shows every PNG of docs/portal/ and every image it shows exists, with its asset link", () => {
    const shown = [...readFileSync("docs/portal.md", "utf8").matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]);
    expect(shown.length).toBeGreaterThan(0);
    for (const src of shown) {
      expect(src, "shown from docs/portal/").toMatch(/^portal\/[a-z0-9-]+\.png$/);
      expect(existsSync(`docs/${src}`), `docs/${src} exists`).toBe(true);
    }
    expect(new Set(shown).size, "each screenshot shown once").toBe(shown.length);
    const kept = readdirSync("docs/portal").map((file) => `portal/${file}`);
    expect(kept.filter((file) => !shown.includes(file)), "PNGs in docs/portal/ that docs/portal.md does not show").toEqual([]);
    const check = spawnSync(process.execPath, ["scripts/build-guides.mjs", "--check"], { encoding: "utf8" });
    expect(check.status, check.stderr).toBe(0);
  });
});
