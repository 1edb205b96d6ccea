import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signFile } from "../../src/lib/signed-links";
import { FILE_LINK_TTL_SECONDS, linksFor, WEBHOOK_FILE_LINK_TTL_SECONDS } from "../../src/services/views/links";
import { call } from "../helpers/api";
import { expectProblem } from "../helpers/seed";
import { pdf } from "./fixtures";

const SECRET = "test-signing-secret";

async function stored(filename = "Statement März 2026.pdf", body: Uint8Array = pdf()) {
  const key = `leads/live/lead_${crypto.randomUUID()}/documents/doc_${crypto.randomUUID().slice(0, 8)}`;
  await env.DOCUMENTS.put(key, body, { httpMetadata: { contentType: "application/pdf" }, customMetadata: { filename } });
  return key;
}

const now = () => Math.floor(Date.now() / 1000);
const get = (pathAndQuery: string) => call("GET", pathAndQuery);

describe("signed file downloads", () => {
  it("return the bytes with Content-Type, an attachment Content-Disposition and a sandboxing CSP", async () => {
    const key = await stored();
    const url = await linksFor(env).file(key);
    const { pathname, search } = new URL(url);
    const res = await get(`${pathname}${search}`);
    expect(res.status).toBe(200);
    expect(res.text).toBe(new TextDecoder().decode(pdf()));
    expect(res.headers.get("Content-Type")).toBe("application/pdf");
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="Statement M_rz 2026.pdf"; filename*=UTF-8''Statement%20M%C3%A4rz%202026.pdf`);
    expect(res.headers.get("Content-Security-Policy")).toBe("sandbox; default-src 'none'");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("live for an hour in API responses and a day in webhook bodies", async () => {
    const at = 1_800_000_000_000;
    const expiresOf = async (ttl: number) => Number(new URL(await linksFor(env, ttl, () => at).file("leads/live/x/documents/y")).searchParams.get("expires"));
    expect(await expiresOf(FILE_LINK_TTL_SECONDS)).toBe(at / 1000 + 3_600);
    expect(await expiresOf(WEBHOOK_FILE_LINK_TTL_SECONDS)).toBe(at / 1000 + 86_400);
  });

  it("refuse a changed signature with 403 link_invalid", async () => {
    const key = await stored();
    const link = await signFile(SECRET, key, now() + 600);
    const last = link.at(-1) === "0" ? "1" : "0";
    expectProblem(await get(link.slice(0, -1) + last), 403, "link_invalid");
    expectProblem(await get(link.replace(/&signature=.*/, "")), 403, "link_invalid");
  });

  it("refuse a changed path with 403 link_invalid", async () => {
    const key = await stored();
    const other = await stored();
    const link = await signFile(SECRET, key, now() + 600);
    expectProblem(await get(link.replace(key, other)), 403, "link_invalid");
  });

  it("refuse a changed expiry with 403 link_invalid", async () => {
    const key = await stored();
    const expires = now() + 600;
    const link = await signFile(SECRET, key, expires);
    const res = await get(link.replace(`expires=${expires}`, `expires=${expires + 86_400}`));
    expectProblem(res, 403, "link_invalid");
    expect(res.headers.get("Content-Type")).toContain("application/problem+json");
  });

  it("refuse an expired link with 403 link_invalid", async () => {
    const key = await stored();
    const res = await get(await signFile(SECRET, key, now() - 1));
    expectProblem(res, 403, "link_invalid");
    expect(res.body.detail).toMatch(/expired/);
  });

  it("answer 404 not_found once the file is gone", async () => {
    const key = await stored();
    const link = await signFile(SECRET, key, now() + 600);
    await env.DOCUMENTS.delete(key);
    expectProblem(await get(link), 404, "not_found");
  });
});
