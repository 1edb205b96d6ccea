/**
 * Issue 21 item 5, "No body limit on the portal and hub": one streaming limit
 * for every route, chunked bodies included, sized per route; 413
 * payload_too_large as problem+json on the APIs and as an HTML page on the
 * portal and the hub.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ownAddress, PRODUCTION, throughEdge } from "../helpers/api";
import { partnerWithKeys } from "../helpers/seed";
import { signedInMember } from "../helpers/portal";
import { createOrganisation } from "../helpers/seed";
import { hubLead } from "../hub/helpers";

/** A body sent in chunks with no Content-Length, as `Transfer-Encoding: chunked` arrives. */
function chunked(totalBytes: number, chunk = 64 * 1024) {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= totalBytes) return controller.close();
      const size = Math.min(chunk, totalBytes - sent);
      controller.enqueue(new Uint8Array(size).fill(0x61));
      sent += size;
    },
  });
}

/** From an address of its own: hub requests and sign-in attempts without one count against the bucket every file shares. */
async function post(path: string, body: BodyInit, headers: Record<string, string>) {
  const all = { "Sec-Fetch-Site": "same-origin", Origin: PRODUCTION, ...ownAddress(), ...headers };
  const res = await exports.default.fetch(new Request(`${PRODUCTION}${path}`, { method: "POST", headers: all, body, redirect: "manual", ...throughEdge(all) }));
  return { status: res.status, type: res.headers.get("Content-Type") ?? "", text: await res.text() };
}

describe("issue 21 item 5: no body limit on the portal and hub", () => {
  it("refuses a chunked 3 MB body on the portal's sign-in verify with a 413 HTML page", async () => {
    const res = await post("/portal/sign-in/verify", chunked(3 * 1024 * 1024), { "Content-Type": "application/json" });
    expect(res.status).toBe(413);
    expect(res.type).toMatch(/^text\/html/);
    expect(res.text).toContain("too large");
  });

  it("refuses an oversized chunked form on an authenticated portal page with a 413 HTML page", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id, "admin");
    const res = await post("/portal/members/invitations", chunked(1024 * 1024), { "Content-Type": "application/x-www-form-urlencoded", Cookie: session.cookie });
    expect(res.status).toBe(413);
    expect(res.type).toMatch(/^text\/html/);
  });

  it("refuses an oversized form on the hub with a 413 HTML page", async () => {
    // A real form of the hub (a message on a deal), on the link's own path: the body is read only
    // once the link has opened the lead (test/security/item-05-checks-before-body.test.ts).
    const { hub, refA } = await hubLead();
    const res = await post(`${hub}/deals/${refA}/messages`, chunked(1024 * 1024), { "Content-Type": "application/x-www-form-urlencoded" });
    expect(res.status).toBe(413);
    expect(res.type).toMatch(/^text\/html/);
  });

  it("sizes the limit per route: a multipart body is no licence for 20 MB on a JSON route, and the token endpoint takes 8 KB", async () => {
    const { sandbox } = await partnerWithKeys();
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(2 * 1024 * 1024)]), "big.bin");
    const lead = await post("/partner/v1/leads", form, { "X-API-Key": sandbox.key });
    expect(lead.status).toBe(413);
    expect(lead.type).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(lead.text).error.code).toBe("payload_too_large");

    const token = await post("/partner/v1/oauth/token", chunked(64 * 1024), { "Content-Type": "application/json" });
    expect(token.status).toBe(413);
    expect(JSON.parse(token.text).error.code).toBe("payload_too_large");
  });
});
