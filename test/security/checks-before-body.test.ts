/**
 * Issue 21 item 5, "the form token checked before the body is parsed where possible": on the portal
 * and the hub, everything a request can be refused for without its body is decided before a byte of
 * the body is read: the cross-site check (Origin / Sec-Fetch-Site), the portal session cookie, the
 * hub's session cookie or link token, and a form token sent as `X-Form-Token`. A body that never
 * ends, sent to an authenticated form by someone without a session, is answered at once and the
 * body's stream is never pulled past its first chunk (the limit itself:
 * test/requests/no-body-limit-on-portal-and-hub.test.ts).
 */
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { ownAddress, PRODUCTION, throughEdge } from "../helpers/api";
import { signedInMember } from "../helpers/portal";
import { createOrganisation } from "../helpers/seed";
import { hubLead, pagesOf } from "../hub/helpers";
import { SESSION_COOKIE } from "../../src/web/portal/session-cookie";

const CHUNK = 16 * 1024;

/**
 * A chunked body we can watch: `chunks` chunks of 16 KB (Infinity: it never ends), or, with
 * `stallAfterFirst`, one chunk and then nothing, ever. `pulled()` says how many chunks were taken.
 */
function watchedBody(options: { chunks?: number; stallAfterFirst?: boolean }) {
  let pulls = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulls++;
        if (options.stallAfterFirst && pulls > 1) return new Promise<void>(() => {});
        if (pulls > (options.chunks ?? Infinity)) return controller.close();
        controller.enqueue(new Uint8Array(CHUNK).fill(0x61));
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulls };
}

/**
 * The answer, or "no answer" when none came within `ms`: the old code waited for the whole body, so
 * a body that never ends got no answer at all. The doors are warmed up first (`beforeAll`), so the
 * bound measures the request, not a cold door's first build.
 */
async function answerWithin(request: Request, ms = 10_000) {
  const timeout = new Promise<"no answer">((resolve) => setTimeout(() => resolve("no answer"), ms));
  const answer = exports.default.fetch(request).then(async (res) => ({ status: res.status, location: res.headers.get("Location"), text: await res.text() }));
  return Promise.race([answer, timeout]);
}

// From an address of its own: hub posts count against their address, and without one against the bucket every file shares.
const formPost = (path: string, body: ReadableStream, headers: Record<string, string> = {}) =>
  new Request(`${PRODUCTION}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin", Origin: PRODUCTION, ...ownAddress(), ...headers },
    body,
    redirect: "manual",
    ...throughEdge(ownAddress()),
  });

describe("issue 21 item 5: checks before the body", () => {
  beforeAll(async () => {
    for (const path of ["/portal/sign-in", "/hub/warm-up"]) await (await exports.default.fetch(new Request(`${PRODUCTION}${path}`, { headers: ownAddress(), ...throughEdge(ownAddress()) }))).text();
  });

  it("item 5: a portal form post without a session is answered (303 to sign-in) without waiting for a body that never ends", async () => {
    const body = watchedBody({ stallAfterFirst: true });
    const res = await answerWithin(formPost("/portal/members/invitations", body.stream));
    expect(res).not.toBe("no answer");
    if (res === "no answer") return;
    expect(res.status).toBe(303);
    expect(res.location).toContain("/portal/sign-in");
    expect(body.pulled()).toBeLessThanOrEqual(2);
  });

  it("item 5: a 1 MB chunked form without a session is not read: at most the first chunk is pulled, no 413", async () => {
    const body = watchedBody({ chunks: 64 });
    const res = await answerWithin(formPost("/portal/members/invitations", body.stream, { Cookie: `${SESSION_COOKIE}=not-a-session` }));
    expect(res).not.toBe("no answer");
    if (res === "no answer") return;
    expect(res.status).toBe(303);
    // The 64 KB form limit would be passed at the fifth chunk: the body was never read.
    expect(body.pulled()).toBeLessThanOrEqual(2);
  });

  it("item 5: a cross-site post with a valid session is refused (403) before its body is read", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id, "admin");
    const body = watchedBody({ stallAfterFirst: true });
    const res = await answerWithin(formPost("/portal/members/invitations", body.stream, { Cookie: session.cookie, "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" }));
    expect(res).not.toBe("no answer");
    if (res === "no answer") return;
    expect(res.status).toBe(403);
    expect(body.pulled()).toBeLessThanOrEqual(2);
  });

  it("item 5: a form token sent as X-Form-Token is checked before the body: a wrong one is 403 without reading it", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id, "admin");
    const body = watchedBody({ stallAfterFirst: true });
    const res = await answerWithin(formPost("/portal/members/invitations", body.stream, { Cookie: session.cookie, "X-Form-Token": "forged" }));
    expect(res).not.toBe("no answer");
    if (res === "no answer") return;
    expect(res.status).toBe(403);
    expect(body.pulled()).toBeLessThanOrEqual(2);
  });

  it("item 5: a hub post without the hub's session cookie, or from another site, is answered before its body is read", async () => {
    const { hub } = await hubLead();
    const noSession = watchedBody({ stallAfterFirst: true });
    const unknown = await answerWithin(formPost(`${pagesOf(hub)}/messages`, noSession.stream));
    expect(unknown).not.toBe("no answer");
    if (unknown === "no answer") return;
    expect(unknown.status).toBe(404);
    expect(noSession.pulled()).toBeLessThanOrEqual(2);

    const crossSite = watchedBody({ stallAfterFirst: true });
    const refused = await answerWithin(formPost(`${hub}/messages`, crossSite.stream, { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" }));
    expect(refused).not.toBe("no answer");
    if (refused === "no answer") return;
    expect(refused.status).toBe(403);
    expect(crossSite.pulled()).toBeLessThanOrEqual(2);
  });

  it("item 5: a signed-in form over the limit is still refused with the 413 page once it is read", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id, "admin");
    const body = watchedBody({ chunks: Infinity });
    const res = await answerWithin(formPost("/portal/members/invitations", body.stream, { Cookie: session.cookie }));
    expect(res).not.toBe("no answer");
    if (res === "no answer") return;
    expect(res.status).toBe(413);
    expect(res.text).toContain("too large");
    // Read up to the limit (64 KB is four chunks) and a little past it, never on to the end.
    expect(body.pulled()).toBeLessThan(10);
  });
});
