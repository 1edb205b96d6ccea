import { describe, expect, it } from "vitest";
import { WIDGET_HASH, WIDGET_SCRIPT } from "../../src/web/embed/widget-script.generated";
import { call } from "../helpers/api";
import { createOrganisation, expectProblem, issueKey } from "../helpers/seed";

const gzipBytes = async (text: string) => {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
};

describe("the embeddable widget's files", () => {
  it("serves a small stable loader that imports the content-hashed build, readable cross-origin", async () => {
    const res = await call("GET", "/embed/v1/prequalify.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/javascript/);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=300");
    expect(res.text).toBe(`import "./prequalify.${WIDGET_HASH}.js";\n`);
    expect(res.text.length).toBeLessThan(100);
  });

  it("serves the build under its hash, immutable, at most 15 KB gzipped", async () => {
    const res = await call("GET", `/embed/v1/prequalify.${WIDGET_HASH}.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(res.text).toBe(WIDGET_SCRIPT);
    const gz = await gzipBytes(res.text);
    expect(gz).toBeLessThanOrEqual(15 * 1024);
  });

  it("answers an old or made-up hash 404 problem+json, never a stale script", async () => {
    const res = await call("GET", "/embed/v1/prequalify.0123456789ab.js");
    expect(res.status).toBe(404);
    expect(res.headers.get("Content-Type")).toBe("application/problem+json");
    expect(res.body.error.code).toBe("not_found");
  });

  it("names no other host: every request goes to the origin the script was loaded from", () => {
    expect(WIDGET_SCRIPT).not.toMatch(/https?:\/\//);
    expect(WIDGET_SCRIPT).toContain("import.meta.url");
    expect(WIDGET_SCRIPT).not.toMatch(/document\.cookie|localStorage|sessionStorage/);
  });

  it("asks for no personal data: no name, e-mail or phone field", () => {
    expect(WIDGET_SCRIPT).not.toMatch(/type:"email"|type:"tel"|"email"|"phone"/);
  });
});

describe("the demo page", () => {
  it("renders the widget with a publishable key under a strict CSP with no inline script", async () => {
    const { id } = await createOrganisation("partner");
    const { key } = await issueKey(id, "sandbox", "publishable", ["http://api.test"]);
    const res = await call("GET", `/embed/v1/demo?key=${key}&locale=fr-FR&country=FR`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`<rfs-prequalify publishable-key="${key}" locale="fr-FR" country="FR">`);
    expect(res.headers.get("Content-Security-Policy")).toMatch(/script-src 'self';/);
    expect(res.headers.get("Content-Security-Policy")).not.toMatch(/unsafe-inline/);
    expect(res.text).not.toMatch(/<script>(?!<)|<script(?![^>]*src=)[^>]*>/);
    expect(res.text).not.toMatch(/<style/);
  });

  it("never puts a secret key into the page, and says how to get a demo key", async () => {
    const { id } = await createOrganisation("partner");
    const { key } = await issueKey(id, "sandbox");
    const res = await call("GET", `/embed/v1/demo?key=${key}`);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(key);
    expect(res.text).toContain("npm run dev");
  });

  it("escapes what it is given", async () => {
    const res = await call("GET", `/embed/v1/demo?key=${encodeURIComponent('"><script>alert(1)</script>')}&locale=${encodeURIComponent("<x>")}`);
    expect(res.text).not.toContain("<script>alert(1)");
    expect(res.text).not.toContain("<x>");
  });
});

describe("what the widget relies on in the API", () => {
  it("lets a browser keep reference lists for an hour", async () => {
    const { id } = await createOrganisation("partner");
    const { key } = await issueKey(id, "sandbox", "publishable", ["https://shop.example"]);
    const res = await call("GET", "/partner/v1/enums/purposes", { key, headers: { Origin: "https://shop.example" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("private, max-age=3600");
  });

  it("lets a page on an origin the key does not allow read the refusal, and only the refusal", async () => {
    const { id } = await createOrganisation("partner");
    const { key } = await issueKey(id, "sandbox", "publishable", ["https://shop.example"]);
    const res = await call("GET", "/partner/v1/enums/purposes", { key, headers: { Origin: "https://elsewhere.example" } });
    expectProblem(res, 403, "origin_not_allowed");
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("https://elsewhere.example");
    expect(res.text).not.toMatch(/working_capital/);
  });
});
