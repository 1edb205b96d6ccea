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
import { hubLead, requestDocuments } from "../hub/helpers";
import { createLead } from "../leads/helpers";
import { routedLead } from "../lender/helpers";
import { freshFormToken } from "../helpers/portal";
import { liveSession } from "../portal/lender/support";
import { Hono } from "hono";
import { DOORS } from "../../src/app";
import type { AppEnv } from "../../src/app-env";
import { fileRoutesOf, UPLOAD_BODY_LIMIT_BYTES } from "../../src/middleware/body-limit";

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
    // Issue 38: the portal's page, inside its navigation (the session was known when the body was read), naming the form's limit.
    expect(res.text).toContain('aria-label="Portal"');
    expect(res.text).toContain("This form takes at most 64 KB");
    expect(res.text).toContain('<a href="/portal/members">Back to the form</a>');
  });

  it("refuses an oversized form on the hub with a 413 HTML page", async () => {
    // A real form of the hub (a message on a deal), on the link's own path: the body is read only
    // once the link has opened the lead (test/security/checks-before-body.test.ts).
    const { hub, refA } = await hubLead();
    const res = await post(`${hub}/deals/${refA}/messages`, chunked(1024 * 1024), { "Content-Type": "application/x-www-form-urlencoded" });
    expect(res.status).toBe(413);
    expect(res.type).toMatch(/^text\/html/);
    // Issue 38: the hub's page, with its navigation back to the lead's (token-free) overview.
    expect(res.text).toContain('<nav aria-label="Hub"><a href="/hub/');
    expect(res.text).toContain("This form takes at most 64 KB");
    expect(res.text).not.toContain(hub.split("/")[3]);
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

// ---------------------------------------------------------------- issue 38: every route that takes files

/** A PDF of exactly `size` bytes: a valid header and trailer, padded with spaces between them. */
function paddedPdf(size: number) {
  const bytes = new Uint8Array(size).fill(0x20);
  bytes.set(new TextEncoder().encode("%PDF-1.7\n1 0 obj <<>> endobj\n"));
  bytes.set(new TextEncoder().encode("trailer <<>>\n%%EOF\n"), size - 19);
  return bytes;
}

/** Just under the limit: the file plus the multipart framing and the form's other fields stay within it. */
const JUST_UNDER = UPLOAD_BODY_LIMIT_BYTES - 8 * 1024;
/** Just over: the file alone passes the limit by one byte. */
const JUST_OVER = UPLOAD_BODY_LIMIT_BYTES + 1;

interface Answer {
  status: number;
  type: string;
  text: string;
  headers: Headers;
}

async function send(method: string, path: string, body: BodyInit, headers: Record<string, string>): Promise<Answer> {
  const all = { "Sec-Fetch-Site": "same-origin", Origin: PRODUCTION, ...ownAddress(), ...headers };
  const res = await exports.default.fetch(new Request(`${PRODUCTION}${path}`, { method, headers: all, body, redirect: "manual", ...throughEdge(all) }));
  return { status: res.status, type: res.headers.get("Content-Type") ?? "", text: await res.text(), headers: res.headers };
}

const fileForm = (name: string, bytes: Uint8Array, fields: Record<string, string> = {}) => {
  const form = new FormData();
  for (const [field, value] of Object.entries(fields)) form.append(field, value);
  form.append(name, new File([bytes], "statement.pdf", { type: "application/pdf" }));
  return form;
};

/** The hub's session cookie for a link, as a browser gets it by opening the link. */
async function hubCookie(link: string) {
  const opened = await exports.default.fetch(new Request(`${PRODUCTION}${link}`, { headers: ownAddress(), redirect: "manual", ...throughEdge(ownAddress()) }));
  await opened.text();
  const cookie = /^(rfs_hub=[^;]+)/.exec(opened.headers.get("Set-Cookie") ?? "")?.[1];
  if (!cookie) throw new Error(`no hub cookie: ${opened.status}`);
  return cookie;
}

/**
 * One file-taking route: how it is reached (a fresh thing to upload to for each file), the status that
 * says a file was taken, and what speaks the refusal: an HTML page of the area (the portal, the hub)
 * or the API's problem+json.
 */
interface FileRoute {
  upload: (bytes: Uint8Array) => Promise<Answer>;
  accepted: number;
  door: "hub" | "portal" | "api" | "apply";
}

/** Every route that takes files, by its method and path in the route table. */
const FILE_ROUTES: Record<string, () => Promise<FileRoute>> = {
  "POST /partner/v1/leads/:id/documents": async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key);
    return { accepted: 201, door: "api", upload: (bytes) => send("POST", `/partner/v1/leads/${lead.id}/documents`, fileForm("file", bytes, { document_type: "other" }), { "X-API-Key": sandbox.key }) };
  },
  "PUT /v1/deals/:ref/agreement": async () => {
    const { keys, refA } = await routedLead();
    return { accepted: 200, door: "api", upload: (bytes) => send("PUT", `/v1/deals/${refA}/agreement`, bytes, { "X-API-Key": keys.a.live, "Content-Type": "application/pdf" }) };
  },
  // A post to the link itself (a script holding the link, no cookie).
  "POST /hub/:leadId/:token{[0-9a-fA-F]{40}}/requests/:requestId": async () => {
    const { hub, lead, refA, a } = await hubLead();
    return {
      accepted: 303,
      door: "hub",
      upload: async (bytes) => {
        const request = await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id });
        return send("POST", `${hub}/requests/${request.id}`, fileForm("file", bytes), {});
      },
    };
  },
  // The address the hub's own upload form posts to, with the session cookie the link was traded for.
  "POST /hub/:leadId/requests/:requestId": async () => {
    const { hub, lead, refA, a } = await hubLead();
    const cookie = await hubCookie(hub);
    return {
      accepted: 303,
      door: "hub",
      upload: async (bytes) => {
        const request = await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id });
        return send("POST", `/hub/${lead.id}/requests/${request.id}`, fileForm("file", bytes), { Cookie: cookie });
      },
    };
  },
  // The business's own statements step, behind its application link's cookie.
  "POST /apply/documents": async () => {
    const { live } = await partnerWithKeys();
    const lead = await createLead(live.key, { country: "GB", business: { name: "Acme Widgets Ltd" } });
    const link = await exports.default.fetch(
      new Request(`${PRODUCTION}/partner/v1/leads/${lead.id}/application-link`, { method: "POST", headers: { "X-API-Key": live.key, "Content-Type": "application/json", ...ownAddress() }, body: "{}" }),
    );
    const { url } = (await link.json()) as { url: string };
    const opened = await exports.default.fetch(new Request(`${PRODUCTION}${new URL(url).pathname}`, { headers: ownAddress(), redirect: "manual", ...throughEdge(ownAddress()) }));
    await opened.text();
    const cookie = /^(rfs_apply=[^;]+)/.exec(opened.headers.get("Set-Cookie") ?? "")?.[1];
    if (!cookie) throw new Error(`no application cookie: ${opened.status}`);
    return { accepted: 303, door: "apply", upload: (bytes) => send("POST", "/apply/documents", fileForm("file", bytes), { Cookie: cookie }) };
  },
  "POST /portal/leads/:id/documents": async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const lead = await createLead(sandbox.key);
    return {
      accepted: 303,
      door: "portal",
      upload: async (bytes) =>
        send("POST", `/portal/leads/${lead.id}/documents`, fileForm("file", bytes, { document_type: "other", _form_token: await freshFormToken(session) }), { Cookie: session.cookie }),
    };
  },
  "POST /portal/deals/:ref/agreement": async () => {
    const { a, refA } = await routedLead();
    const session = await liveSession(a.id);
    return {
      accepted: 303,
      door: "portal",
      upload: async (bytes) => send("POST", `/portal/deals/${refA}/agreement`, fileForm("agreement", bytes, { _form_token: await freshFormToken(session) }), { Cookie: session.cookie }),
    };
  },
};

const LIMIT_IN_WORDS = `${UPLOAD_BODY_LIMIT_BYTES / 1024 / 1024} MB`;

describe("issue 38: every route that takes files takes them up to its limit, whatever address it is reached by", () => {
  it("walks the file-taking routes of the route table itself: each door's routes that declare files, every one of them here", async () => {
    const declared: string[] = [];
    for (const door of DOORS) {
      const app = new Hono<AppEnv>();
      await door.mount(app);
      for (const route of fileRoutesOf(app.routes)) {
        declared.push(`${route.method} ${route.path}`);
        expect(route.bytes, `${route.method} ${route.path}`).toBe(UPLOAD_BODY_LIMIT_BYTES);
      }
    }
    // A new route that takes files fails here until it has its case in FILE_ROUTES.
    expect(declared.sort()).toEqual(Object.keys(FILE_ROUTES).sort());
  });

  for (const [route, setUp] of Object.entries(FILE_ROUTES)) {
    it(`${route}: a file just under the limit is taken, one just over is a 413 the door speaks`, { timeout: 60_000 }, async () => {
      const target = await setUp();
      const under = await target.upload(paddedPdf(JUST_UNDER));
      expect(under.status, under.text.slice(0, 500)).toBe(target.accepted);

      const over = await target.upload(paddedPdf(JUST_OVER));
      expect(over.status).toBe(413);
      if (target.door === "api") {
        expect(over.type).toMatch(/^application\/problem\+json/);
        expect(JSON.parse(over.text).error.code).toBe("payload_too_large");
        return;
      }
      expect(over.type).toMatch(/^text\/html/);
      // Drawn in the area's layout, with the area's strict headers.
      if (target.door === "hub") expect(over.text).toContain('<nav aria-label="Hub">');
      else if (target.door === "apply") expect(over.text).toContain("· Your application</title>");
      else expect(over.text).toMatch(/<a class="skip" href="#main">/);
      expect(over.headers.get("Content-Security-Policy")).toContain("default-src 'none'");
      // The real limit of the form in the words a person reads, and what to do about it.
      expect(over.text).toContain(`at most ${LIMIT_IN_WORDS}`);
      expect(over.text).not.toMatch(/MiB|bytes/);
      expect(over.text).toContain("smaller");
      expect(over.text).toContain("a PDF instead of photos");
    });
  }
});
