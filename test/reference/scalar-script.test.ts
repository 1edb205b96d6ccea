import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { scriptEncoding } from "../../src/api/reference/page";
import { createApp } from "../../src/app";
import { call } from "../helpers/api";
import { expectProblem } from "../helpers/seed";

// The page puts the answer's CSP nonce on the tag (issue 21 item 13).
const SCRIPT = /<script nonce="[^"]+" src="(\/docs\/scalar\.([0-9a-f]{16})\.js)"><\/script>/;

const sha256Prefix = async (text: string) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))).slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** A static-assets binding holding one standalone.js with this content (the platform's binding, not ours). */
const assetsHolding = (content: string) =>
  ({ fetch: async (input: RequestInfo | URL) => (new URL(String(input instanceof Request ? input.url : input)).pathname === "/standalone.js" ? new Response(content) : new Response("", { status: 404 })) }) as unknown as Fetcher;

describe("the reference's script (issue 24 item 7)", () => {
  it("is named by its content's hash, compressed, and cached immutable", async () => {
    const page = await call("GET", "/docs");
    const [, path, hash] = SCRIPT.exec(page.text) ?? [];
    expect(path, page.text.slice(0, 500)).toBeDefined();
    const script = await call("GET", path, { headers: { "Accept-Encoding": "gzip, deflate, br" } });
    expect(script.status).toBe(200);
    expect(script.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(script.headers.get("Content-Encoding")).toBe("br");
    expect(script.headers.get("Vary")).toBe("Accept-Encoding");
    expect(script.headers.get("Content-Type")).toContain("javascript");
    expect(script.text).toContain("createApiReference");
    // The name is the hash of what is served.
    expect(await sha256Prefix(script.text)).toBe(hash);
  });

  it("changes its name when the content changes, and refuses a name that is not the current hash", async () => {
    const app = createApp();
    const names = [];
    for (const content of ["console.log('release one')", "console.log('release two')"]) {
      const assets = assetsHolding(content);
      const page = await app.request("http://api.test/docs", {}, { ...env, ASSETS: assets });
      const [, path, hash] = SCRIPT.exec(await page.text()) ?? [];
      expect(hash).toBe(await sha256Prefix(content));
      const script = await app.request(`http://api.test${path}`, { headers: { "Accept-Encoding": "gzip" } }, { ...env, ASSETS: assets });
      expect(script.status).toBe(200);
      expect(script.headers.get("Content-Encoding")).toBe("gzip");
      expect(await script.text()).toBe(content);
      names.push(path);
    }
    expect(names[0]).not.toBe(names[1]);
    // The first release's name, asked of the second: a 404 problem, never the wrong content under an immutable name.
    const stale = await app.request(`http://api.test${names[0]}`, {}, { ...env, ASSETS: assetsHolding("console.log('release two')") });
    expectProblem({ status: stale.status, headers: stale.headers, body: await stale.json() }, 404, "not_found");
  });

  it("is sent uncompressed only to a client that accepts no compression", async () => {
    expect(scriptEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(scriptEncoding("gzip")).toBe("gzip");
    expect(scriptEncoding("br;q=0, gzip;q=0.5")).toBe("gzip");
    expect(scriptEncoding("identity")).toBeNull();
    expect(scriptEncoding(undefined)).toBeNull();
    const plain = await call("GET", "/docs/scalar.js");
    expect(plain.headers.get("Content-Encoding")).toBeNull();
    expect(plain.headers.get("Cache-Control")).toBe("public, max-age=3600");
  });
});
