// Issue 21 item 6, "Client-hub links live forever": the link is traded for a session cookie and the
// browser redirected without the token; links expire, can be rotated (the old one dies), the hub is
// read-only once the lead is closed, and requests are rate-limited per link and per address.
import { env, exports } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, newClientAddress, PRODUCTION, throughEdge } from "../helpers/api";
import { partnerWithKeys } from "../helpers/seed";
import { completeUkLead } from "../leads/helpers";
import { OUR_ORIGIN } from "./helpers";
import { emptyUnattributedHubBucket } from "./unattributed-bucket";
import { inData } from "../helpers/data-db";

// The last test spends the hub's `unattributed` per-address bucket on purpose. This file shares its
// worker's runtime with other files (vitest.config.mts), so it starts that bucket empty (the test's
// loop then needs one window, not two) and empties it again when done: the next file's hub pages are
// not refused for the rest of the minute.
beforeAll(emptyUnattributedHubBucket);
afterAll(emptyUnattributedHubBucket);

async function draftWithLink() {
  const partner = await partnerWithKeys();
  const created = await call("POST", "/partner/v1/leads", { key: partner.live.key, body: completeUkLead() });
  expect(created.status).toBe(201);
  const link = new URL(created.body.upload_url).pathname;
  return { partner, lead: created.body, link, pages: `/hub/${created.body.id}` };
}

/** A GET as the edge hands it on: with `request.cf` whenever the test names the client address (helpers/api.ts `throughEdge`). */
async function get(path: string, headers: Record<string, string> = {}) {
  const res = await exports.default.fetch(new Request(`${PRODUCTION}${path}`, { headers, redirect: "manual", ...throughEdge(headers) }));
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Opens the link as a browser would (typed or bookmarked) and answers the session cookie pair `rfs_hub=…`. */
async function open(link: string, ip: string) {
  const res = await get(link, { "CF-Connecting-IP": ip });
  expect(res.status).toBe(303);
  return /^(rfs_hub=[^;]+)/.exec(res.headers.get("Set-Cookie") ?? "")![1]!;
}

describe("issue 21 item 6: client-hub links", () => {
  it("trades the token for an HttpOnly SameSite=Strict cookie and redirects to the same page without the token", async () => {
    const { link, pages, lead } = await draftWithLink();
    const res = await get(`${link}/requests/req_none?x=1`, { "CF-Connecting-IP": newClientAddress() });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`${pages}/requests/req_none?x=1`);
    expect(res.headers.get("Location")).not.toContain(link.split("/")[3]);
    const cookie = res.headers.get("Set-Cookie")!;
    expect(cookie).toMatch(/^rfs_hub=\d+\.\d+\.[0-9a-f]{64};/);
    expect(cookie).toContain(`Path=/hub/${lead.id}`);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Strict");
    expect(cookie).toMatch(/Max-Age=\d+/);
    expect(cookie).not.toContain("Secure"); // http://api.test; https hosts get Secure (next test)
    expect(res.headers.get("Referrer-Policy")).toBe("no-referrer");

    const page = await get(pages, { Cookie: /^(rfs_hub=[^;]+)/.exec(cookie)![1]!, "CF-Connecting-IP": newClientAddress() });
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<a href="${pages}">Overview</a>`);
    expect(page.text).not.toContain(link);
    // Without the cookie the token-free page is the plain 404 page.
    expect((await get(pages, { "CF-Connecting-IP": newClientAddress() })).status).toBe(404);
  });

  it("marks the cookie Secure on https, and answers a link followed from another site with a page that moves on by itself", async () => {
    const { link, pages } = await draftWithLink();
    const secure = await exports.default.fetch(new Request(`https://api.test${link}`, { headers: { "CF-Connecting-IP": newClientAddress() }, redirect: "manual" }));
    expect(secure.headers.get("Set-Cookie")).toContain("Secure");
    await secure.text();
    const cross = await get(link, { "Sec-Fetch-Site": "cross-site", "CF-Connecting-IP": newClientAddress() });
    expect(cross.status).toBe(200);
    expect(cross.headers.get("Set-Cookie")).toContain("SameSite=Strict");
    expect(cross.text).toContain(`<meta http-equiv="refresh" content="0;url=${pages}"`);
    expect(cross.text).not.toContain(link);
  });

  it("rotates through POST /partner/v1/leads/{id}/hub-link: the old link and its sessions die at once, the new one works, a retry replays", async () => {
    const { partner, lead, link, pages } = await draftWithLink();
    const oldSession = await open(link, newClientAddress());
    const rotated = await call("POST", `/partner/v1/leads/${lead.id}/hub-link`, { key: partner.live.key, headers: { "Idempotency-Key": `rot-${lead.id}` } });
    expect(rotated.status).toBe(200);
    expect(rotated.body.id).toBe(lead.id);
    const newLink = new URL(rotated.body.upload_url).pathname;
    expect(newLink).not.toBe(link);
    expect(Date.parse(rotated.body.expires_at) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect(rotated.headers.get("Referrer-Policy")).toBe("no-referrer");

    expect((await get(link, { "CF-Connecting-IP": newClientAddress() })).status).toBe(404);
    expect((await get(pages, { Cookie: oldSession, "CF-Connecting-IP": newClientAddress() })).status).toBe(404);
    const newSession = await open(newLink, newClientAddress());
    expect((await get(pages, { Cookie: newSession, "CF-Connecting-IP": newClientAddress() })).status).toBe(200);

    // The same Idempotency-Key answers the first rotation again and rotates nothing.
    const replay = await call("POST", `/partner/v1/leads/${lead.id}/hub-link`, { key: partner.live.key, headers: { "Idempotency-Key": `rot-${lead.id}` } });
    expect(replay.body.upload_url).toBe(rotated.body.upload_url);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await get(pages, { Cookie: newSession, "CF-Connecting-IP": newClientAddress() })).status).toBe(200);
    // The lead's upload_url is the new link.
    const read = await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key });
    expect(read.body.upload_url).toBe(rotated.body.upload_url);
  });

  it("rotates nothing for another account's lead or the other environment's key (404)", async () => {
    const { partner, lead, link } = await draftWithLink();
    const other = await partnerWithKeys();
    const foreign = await call("POST", `/partner/v1/leads/${lead.id}/hub-link`, { key: other.live.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("not_found");
    expect((await call("POST", `/partner/v1/leads/${lead.id}/hub-link`, { key: partner.sandbox.key })).status).toBe(404);
    // The link still works: nothing was rotated.
    await open(link, newClientAddress());
  });

  it("expires a link 30 days after issue (410 page) and ends its sessions", async () => {
    const { partner, lead, link, pages } = await draftWithLink();
    const session = await open(link, newClientAddress());
    const old = new Date(Date.now() - 31 * 86_400_000).toISOString();
    await inData.prepare("update leads set created_at = ? where id = ?").bind(old, lead.id).run();
    const expired = await get(link, { "CF-Connecting-IP": newClientAddress() });
    expect(expired.status).toBe(410);
    expect(expired.text).toContain("Link expired");
    expect(expired.headers.get("Set-Cookie")).toBeNull();
    expect((await get(pages, { Cookie: session, "CF-Connecting-IP": newClientAddress() })).status).toBe(404);
    // Renewed by rotation: a fresh link for another 30 days.
    const rotated = await call("POST", `/partner/v1/leads/${lead.id}/hub-link`, { key: partner.live.key });
    await open(new URL(rotated.body.upload_url).pathname, newClientAddress());
  });

  it("is read-only once the lead is funded or declined: pages still open, every post is refused with 409 and writes nothing", async () => {
    for (const state of ["funded", "declined", "out_of_scope"]) {
      const { lead, link, pages } = await draftWithLink();
      await inData.prepare("update leads set state = ? where id = ?").bind(state, lead.id).run();
      const session = await open(link, newClientAddress());
      const page = await get(pages, { Cookie: session, "CF-Connecting-IP": newClientAddress() });
      expect(page.status).toBe(200);
      expect(page.text).toContain("closed");
      const post = await exports.default.fetch(
        new Request(`${PRODUCTION}${pages}/deals/RFS-NONE/messages`, {
          method: "POST",
          headers: { Cookie: session, Origin: OUR_ORIGIN, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": newClientAddress() },
          body: "subject=Hi&body=Hello",
          redirect: "manual",
        }),
      );
      expect(post.status).toBe(409);
      expect(await post.text()).toContain("nothing can be changed");
      // The token path takes no post either.
      const viaToken = await exports.default.fetch(
        new Request(`${PRODUCTION}${link}/deals/RFS-NONE/messages`, {
          method: "POST",
          headers: { Origin: OUR_ORIGIN, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": newClientAddress() },
          body: "subject=Hi&body=Hello",
          redirect: "manual",
        }),
      );
      expect(viaToken.status).toBe(409);
      await viaToken.text();
    }
  });

  it("limits one link to 60 requests a minute (429 page with Retry-After)", async () => {
    const { link, pages } = await draftWithLink();
    const session = await open(link, newClientAddress());
    let last = { status: 0, headers: new Headers(), text: "" };
    for (let i = 0; i < 60; i++) {
      last = await get(pages, { Cookie: session, "CF-Connecting-IP": newClientAddress() });
      if (last.status === 429) break;
    }
    expect(last.status).toBe(429);
    expect(Number(last.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(last.headers.get("Content-Type")).toContain("text/html");
    expect(last.text).toContain("Too many requests");
  });

  it("limits one client address to 120 hub requests a minute, wrong links included", { timeout: 120_000 }, async () => {
    const ip = newClientAddress();
    const statuses: number[] = [];
    let throttled: Awaited<ReturnType<typeof get>> | undefined;
    // In batches, so the 121 requests land well inside one minute on a loaded machine.
    for (let batch = 0; batch < 7 && !throttled; batch++) {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => get(`/hub/lead_guess${batch}_${i}/${"0".repeat(40)}`, { "CF-Connecting-IP": ip })));
      statuses.push(...answers.map((a) => a.status));
      throttled = answers.find((a) => a.status === 429);
    }
    expect(statuses.filter((s) => s === 404)).toHaveLength(120);
    expect(throttled?.status).toBe(429);
    expect(Number(throttled!.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it("item 3 (sec21): a rotating CF-Connecting-IP without request.cf does not bypass the per-address limit", { timeout: 120_000 }, async () => {
    // A request that did not pass the edge (no `request.cf`): its header is whatever the client wrote,
    // so every such request counts against one bucket (lib/client-address.ts), whatever it claims.
    const forged = (i: number) =>
      exports.default.fetch(
        new Request(`${PRODUCTION}/hub/lead_forged${i}/${"0".repeat(40)}`, { headers: { "CF-Connecting-IP": `203.0.113.${i % 250}-${crypto.randomUUID().slice(0, 8)}` }, redirect: "manual" }),
      );
    let throttled: Response | undefined;
    // That one bucket is shared with this file's other requests without request.cf, so its minute may
    // have begun before this test and roll over during it: up to two windows' worth, until one is refused.
    for (let batch = 0; batch < 14 && !throttled; batch++) {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => forged(batch * 20 + i)));
      await Promise.all(answers.map((a) => a.text()));
      throttled = answers.find((a) => a.status === 429);
    }
    expect(throttled?.status).toBe(429);
    expect(Number(throttled!.headers.get("Retry-After"))).toBeGreaterThan(0);
  });
});
