import { describe, expect, it } from "vitest";
import { GUIDE_IMAGES, GUIDES } from "../../src/api/reference/guides.generated";
import { call } from "../helpers/api";
import { expectProblem } from "../helpers/seed";

// Issue 23 item 5: the guides' images (docs/portal/*.png) are static assets served under
// /docs/guides/<path>, with their content type; only an image a guide shows is served.
describe("the guides' images", () => {
  it("every image a guide shows is listed, and served as image/png with a day's cache", async () => {
    const shown = new Set(GUIDES.flatMap((g) => [...g.html.matchAll(/<img src="\/docs\/guides\/([^"]+)"/g)].map((m) => m[1])));
    expect([...shown].sort()).toEqual([...GUIDE_IMAGES]);
    expect(GUIDE_IMAGES.length).toBeGreaterThan(0);
    const res = await call("GET", `/docs/guides/${GUIDE_IMAGES[0]}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/png");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=86400");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });

  it("answers an image no guide shows, or a path that is not an image name, with a 404 problem", async () => {
    expectProblem(await call("GET", "/docs/guides/portal/not-shown.png"), 404, "not_found");
    expect((await call("GET", "/docs/guides/portal/..%2F..%2Fwrangler.toml")).status).toBe(404);
    expect((await call("GET", "/docs/guides/portal/standalone.js")).status).toBe(404);
  });
});
