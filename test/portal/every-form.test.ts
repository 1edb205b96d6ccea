/**
 * Issue 23 item 6, for every form: the list of forms is the portal's, the
 * hub's and the application link's POST routes themselves (read from their Hono
 * apps), and every one of them has a bad post here. A new POST route without one fails the first test.
 *
 * A form with fields, posted wrong (wrong types, missing required fields, a bad
 * choice, too long), answers with its page again: every message shown is in the
 * person's words from the one map (no dotted field path, no zod default, no API
 * developer sentence), the first refused input is focused (autofocus) and marked
 * (aria-invalid, drawn with the red border), and the form's required inputs are
 * marked. An action without fields (revoke, delete, sign out) posted at a thing
 * that is not there answers the 404 page, in words, never a 500. Every answer but a
 * redirect is an HTML page, never JSON (issue 47: the portal's and the hub's own error handler,
 * web/kit/page-errors.ts); only the passkey script's ceremony steps answer JSON.
 *
 * Issue 45 item 11: a refused form is answered 303 to its form's page (post/redirect/get), and that
 * page's GET shows it with the refusal's status; the address asked again (Back, reload) is the form
 * afresh, never a 404 nor the post sent again. The hub's cases post on the link's own address
 * (no session cookie), which is answered at once; test/hub/hub.security.test.ts posts with the cookie.
 */
import { once } from "../helpers/once";
import { describe, expect, it } from "vitest";
import { createHubRoutes } from "../../src/web/hub/routes";
import { createApplyRoutes } from "../../src/web/apply/routes";
import { createPortalRoutes } from "../../src/web/portal/mount/routes";
import { env, exports } from "cloudflare:workers";
import { sha256Hex } from "../../src/lib/crypto";
import { REFUSED_POST_TTL_MS, sweepRefusedPosts } from "../../src/services/portal/refused-posts";
import { testDeps } from "../helpers/deps";
import { call, ownAddress, PRODUCTION, throughEdge } from "../helpers/api";
import { portal, signedInMember, type PortalSession } from "../helpers/portal";
import { lenderWithKeys, partnerWithKeys } from "../helpers/seed";
import { acceptedHubLead, filesForm, hubCall, hubLead, requestDocuments } from "../hub/helpers";
import { createLead, person } from "../leads/helpers";
import { pdfBytes } from "../lender/helpers";
import { lenderAtLiveDeal, postAgreement } from "./lender/support";
import { completeUkForm, leadVersion, personLinksOf, portalUpload } from "./partner/helpers";
import { receiverBucket } from "../webhooks/support/webhooks";

interface Answer {
  status: number;
  text: string;
  /** The redirect a refused post was answered with, to its form's page (`?refused=`), when it was. */
  via?: string | null;
  /** The status of that address asked again (Back or reload to it): the form's page afresh. */
  back?: number;
}

/** A form with fields: its bad post, the status, and the input that must be focused (null: a refusal about the whole form). */
interface FormCase {
  kind: "form";
  post: () => Promise<Answer>;
  status: number;
  first: string | null;
}
/** An action with no fields of its own, posted at a thing that is not there. */
interface ActionCase {
  kind: "action";
  post: () => Promise<Answer>;
  status: number;
}
/** A passkey ceremony step: JSON for the page's script, never a page; a bad body is the API's problem answer. */
interface CeremonyCase {
  kind: "ceremony";
  post: () => Promise<Answer>;
}
type Case = FormCase | ActionCase | CeremonyCase;

// ---------------------------------------------------------------- the routes themselves

const HUB_PREFIX = /^\/:leadId(?:\/:token[^/]*)?/;
function postRoutes(): string[] {
  const portalRoutes = createPortalRoutes()
    .routes.filter((r) => r.method === "POST")
    .map((r) => `portal ${r.path}`);
  const hubRoutes = createHubRoutes()
    .routes.filter((r) => r.method === "POST")
    .map((r) => `hub ${r.path.replace(HUB_PREFIX, "")}`);
  const applyRoutes = createApplyRoutes()
    .routes.filter((r) => r.method === "POST")
    .map((r) => `apply ${r.path}`);
  return [...new Set([...portalRoutes, ...hubRoutes, ...applyRoutes])].sort();
}

// ---------------------------------------------------------------- what a page shows

function shownMessages(html: string): string[] {
  const found = [...html.matchAll(/<(?:span|p)[^>]*class="(?:field-error|error)"[^>]*>([\s\S]*?)<\/(?:span|p)>/g)].map((m) => m[1].replace(/<[^>]+>/g, ""));
  return found.map((m) => m.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&").trim()).filter(Boolean);
}

const ZOD_DEFAULTS = [/Invalid input/i, /expected \w+, received/i, /Too (small|big)/, /Invalid option/, /Invalid string/, /Invalid (email|url)/i, /Unrecognized key/i, /must be one of/i];
const DOTTED_PATH = /\b(?:[a-z]+_[a-z_]*|business|funding|trading|contact|consent|channel|query|body|persons|significant_persons)\.[a-z_0-9]+/;
// The API's developer shapes: a field named by its code, or a code in backticks.
const DEVELOPER = [/\b[a-z]+_[a-z_]+ (?:is|must|are) /, /`[^`]+`/, /\binvalid_request\b/, /\bnot_found\b/];

function expectPersonWords(html: string, where: string) {
  for (const message of shownMessages(html)) {
    expect(message, `${where}: ${message}`).not.toMatch(DOTTED_PATH);
    for (const pattern of [...ZOD_DEFAULTS, ...DEVELOPER]) expect(message, `${where}: ${message}`).not.toMatch(pattern);
  }
}

const controls = (html: string) => html.match(/<(?:input|select|textarea)\b[^>]*>/g) ?? [];
const attr = (tag: string, name: string) => tag.match(new RegExp(`\\b${name}="([^"]*)"`))?.[1] ?? null;

/** A page without a doctype is drawn in quirks mode (another box model, other table and line-height rules). */
const expectStandardsMode = (answer: Answer, where: string) => expect(answer.text.slice(0, 15).toLowerCase(), `${where}: starts with the doctype`).toBe("<!doctype html>");

function expectRefusedForm(answer: Answer, c: FormCase, where: string) {
  // Post/redirect/get: the refusal is shown by the GET of the form's page, so Back or reload never sends the form again.
  // The hub's cases post on the link's own address (no session cookie), which is answered at once.
  if (!where.startsWith("hub ")) {
    expect(answer.via, `${where}: answered 303 to the form's page`).toMatch(/^\/(?:portal|apply)\/[^?]*\?refused=[A-Za-z0-9]+$/);
    // Back (or reload) to that address: its one-time page spent, the form's page drawn afresh (or its own refusal,
    // as the funded page's of a deal without an accepted offer), never a 404 or the post again.
    expect([200, c.status], `${where}: ${answer.via} asked again`).toContain(answer.back);
  }
  expect(answer.status, `${where}: ${answer.text.slice(0, 400)}`).toBe(c.status);
  expectStandardsMode(answer, where);
  expect(shownMessages(answer.text).length, `${where} shows what is wrong`).toBeGreaterThan(0);
  expectPersonWords(answer.text, where);
  const focused = controls(answer.text).filter((tag) => /\bautofocus\b/.test(tag));
  if (c.first === null) {
    expect(focused, `${where}: nothing to focus`).toHaveLength(0);
  } else {
    expect(focused, `${where}: one input focused; shown: ${shownMessages(answer.text).join(" | ")}`).toHaveLength(1);
    expect(attr(focused[0], "name"), where).toBe(c.first);
    expect(focused[0], where).toContain('aria-invalid="true"');
    // The mark is drawn: a red border on every aria-invalid input.
    expect(answer.text, where).toMatch(/\[aria-invalid=(?:"?true"?)\]\{border:2px solid/);
  }
  // Every required input of the page is marked so beside its label.
  for (const tag of controls(answer.text).filter((t) => /\brequired\b/.test(t) && attr(t, "type") !== "hidden" && attr(t, "type") !== "radio")) {
    const id = attr(tag, "id");
    // Its label: the one `for` its id, or the one it sits inside (a checkbox).
    const wrapping = () => {
      const at = answer.text.indexOf(tag);
      const before = answer.text.slice(0, at);
      return before.lastIndexOf("<label") > before.lastIndexOf("</label>") ? answer.text.slice(at, answer.text.indexOf("</label>", at)) : "";
    };
    const label = id ? (answer.text.match(new RegExp(`<label[^>]*for="${id.replace(/\./g, "\\.")}"[^>]*>([\\s\\S]*?)</label>`))?.[1] ?? "") : wrapping();
    expect(label, `${where}: ${id} is marked required`).toMatch(/required-mark|\(required\)/);
  }
}

function expectAction(answer: Answer, c: ActionCase, where: string) {
  expect(answer.status, `${where}: ${answer.text.slice(0, 300)}`).toBe(c.status);
  if (answer.status < 300 || answer.status >= 400) {
    expect(answer.text, where).toMatch(/<h1[ >]/);
    expectStandardsMode(answer, where);
  }
  expectPersonWords(answer.text, where);
}

// ---------------------------------------------------------------- the bad posts

const MISSING = "x".repeat(3000);

/**
 * Made once per file, on first use, and shared by the cases that only post a refused form or an
 * action at a thing that is not there: such a post writes nothing another case reads (each post
 * carries a fresh form token, `portal()`), so a partner, a lender or a routed lead of its own per
 * case only repeated the same admin and API calls. A case that writes before its bad post (the
 * webhook edit, the submit, the completion signature) still makes what it writes on.
 */
const partnerAdmin = once(async () => {
  const partner = await partnerWithKeys();
  const session = await signedInMember(partner.organisation.id, "admin");
  const lead = await createLead(partner.sandbox.key, undefined);
  await call("PUT", `/partner/v1/leads/${lead.id}/significant-persons`, { key: partner.sandbox.key, body: { significant_persons: [person()] } });
  return { ...partner, session, lead };
});

const lenderSandbox = once(async () => {
  const lender = await lenderWithKeys();
  return { ...lender, session: await signedInMember(lender.organisation.id, "admin") };
});

const sharedLiveDeal = once(lenderAtLiveDeal);
const sharedHubLead = once(() => hubLead());

/**
 * A live lead's application link, opened once as the business's browser opens it: the session cookie
 * every apply case posts with (each bad post writes nothing, so they share it).
 */
const sharedApplySession = once(async () => {
  const partner = await partnerWithKeys();
  const lead = await createLead(partner.live.key, { country: "GB", business: { name: "Apply Forms Ltd" } });
  const link = await call("POST", `/partner/v1/leads/${lead.id}/application-link`, { key: partner.live.key, body: {} });
  const headers = ownAddress();
  const opened = await exports.default.fetch(new Request(`${PRODUCTION}${new URL(link.body.url).pathname}`, { headers, redirect: "manual", ...throughEdge(headers) }));
  await opened.text();
  const cookie = /^(rfs_apply=[^;]+)/.exec(opened.headers.get("Set-Cookie") ?? "")?.[1];
  if (!cookie) throw new Error(`apply: the link did not open (${opened.status})`);
  return cookie;
});
/** A post's answer as the browser shows it (the helpers follow a refused post's redirect), and the status of its form's page asked again. */
async function shown(answer: { status: number; text: string; via: string | null }, cookie: string, headers: Record<string, string> = {}): Promise<Answer> {
  if (!answer.via) return answer;
  const again = await exports.default.fetch(new Request(new URL(answer.via, PRODUCTION), { headers: { ...headers, Cookie: cookie }, redirect: "manual", ...throughEdge(headers) }));
  await again.text();
  return { ...answer, back: again.status };
}

const applyPost = async (path: string, body: { form?: Record<string, string>; multipart?: FormData }) => {
  const cookie = await sharedApplySession();
  return shown(await hubCall("POST", `/apply${path}`, { ...body, headers: { Cookie: cookie } }), cookie, ownAddress());
};

const p = async (session: PortalSession, path: string, form: Record<string, string | string[]>) => shown(await portal("POST", path, { session, form }), session.cookie);

function cases(): Record<string, () => Promise<Case>> {
  const form = (first: string | null, status: number, post: () => Promise<Answer>): FormCase => ({ kind: "form", first, status, post });
  const action = (post: () => Promise<Answer>, status = 404): ActionCase => ({ kind: "action", post, status });
  return {
    // The environment switch's one field: a bad choice.
    "portal /environment": async () => {
      const { session } = await partnerAdmin();
      return { kind: "action", status: 400, post: () => p(session, "/environment", { environment: "production" }) };
    },
    "portal /sign-out": async () => {
      // Signing out has nothing to get wrong: a post without a session is the sign-in page's business (redirect), never a 500.
      return action(() => portal("POST", "/sign-out", { form: {} }), 303);
    },
    "portal /invitations/:token/options": async () => ({ kind: "ceremony", post: () => portal("POST", "/invitations/nope/options", { form: {} }) }),
    "portal /invitations/:token/verify": async () => ({ kind: "ceremony", post: () => portal("POST", "/invitations/nope/verify", { form: {} }) }),
    "portal /sign-in/options": async () => ({ kind: "ceremony", post: () => portal("POST", "/sign-in/options", { form: { email: "x" } }) }),
    "portal /sign-in/verify": async () => ({ kind: "ceremony", post: () => portal("POST", "/sign-in/verify", { form: {} }) }),
    // The invitation's ceremony after the link was traded for its cookie: without the cookie, JSON all the same.
    "portal /invitation/options": async () => ({ kind: "ceremony", post: () => portal("POST", "/invitation/options", { form: {} }) }),
    "portal /invitation/verify": async () => ({ kind: "ceremony", post: () => portal("POST", "/invitation/verify", { form: {} }) }),
    // A signed-in member's second passkey.
    "portal /passkeys/options": async () => {
      const { session } = await partnerAdmin();
      return { kind: "ceremony", post: () => p(session, "/passkeys/options", {}) };
    },
    "portal /passkeys/verify": async () => {
      const { session } = await partnerAdmin();
      return { kind: "ceremony", post: () => p(session, "/passkeys/verify", {}) };
    },
    // The step-up (issue 39 item 9): a signed-in member confirms with their passkey.
    "portal /step-up/options": async () => {
      const { session } = await partnerAdmin();
      return { kind: "ceremony", post: () => p(session, "/step-up/options", {}) };
    },
    "portal /step-up/verify": async () => {
      const { session } = await partnerAdmin();
      return { kind: "ceremony", post: () => p(session, "/step-up/verify", {}) };
    },
    "portal /passkeys/:id/remove": async () => {
      const { session } = await partnerAdmin();
      return action(() => p(session, "/passkeys/cred_nothere/remove", {}));
    },

    "portal /members/invitations": async () => {
      const { session } = await partnerAdmin();
      return form("email", 400, () => p(session, "/members/invitations", { email: "not-an-address", role: "owner" }));
    },
    // Your settings (issue 45 items 9 and 10): a name with a text-direction character and a zone not on the list.
    "portal /settings": async () => {
      const { session } = await partnerAdmin();
      return form("display_name", 400, () => p(session, "/settings", { display_name: "Ada\u202eLovelace", time_zone: "Mars/Olympus_Mons" }));
    },
    "portal /members/invitations/:id/revoke": async () => {
      const { session } = await partnerAdmin();
      return action(() => p(session, "/members/invitations/inv_nothere/revoke", {}));
    },
    "portal /members/:id/role": async () => {
      const { session } = await partnerAdmin();
      return action(() => p(session, "/members/mem_nothere/role", { role: "member" }));
    },
    "portal /members/:id/reinvite": async () => {
      const { session } = await partnerAdmin();
      return action(() => p(session, "/members/mem_nothere/reinvite", {}));
    },
    "portal /members/:id/remove": async () => {
      const { session } = await partnerAdmin();
      return action(() => p(session, "/members/mem_nothere/remove", { confirmed: "yes" }));
    },

    "portal /keys": async () => {
      const { session } = await partnerAdmin();
      return form("allowed_origins", 400, () => p(session, "/keys", { type: "publishable", allowed_origins: "ftp://bad.example/path" }));
    },
    "portal /keys/:clientId/revoke": async () => {
      const { session } = await partnerAdmin();
      return action(() => p(session, "/keys/rfs_ptr_sandbox_0000000000000000/revoke", { confirmed: "yes" }));
    },
    "portal /webhooks": async () => {
      const { session } = await partnerAdmin();
      return form("events", 400, () => p(session, "/webhooks", { url: "not a url", events: ["no.such.event"], payload: "everything" }));
    },
    ...Object.fromEntries(
      ["rotate-secret", "delete", "reactivate", "test"].map((step) => [
        `portal /webhooks/:id/${step}`,
        async (): Promise<Case> => {
          const { session } = await partnerAdmin();
          return action(() => p(session, `/webhooks/whe_nothere/${step}`, step === "delete" ? { confirmed: "yes" } : {}));
        },
      ]),
    ),
    "portal /webhooks/:id/edit": async () => {
      const { session, sandbox } = await partnerAdmin();
      const made = await call("POST", "/partner/v1/webhooks", { key: sandbox.key, body: { url: receiverBucket().url() } });
      expect(made.status, made.text).toBe(201);
      return form("events", 400, () => p(session, `/webhooks/${made.body.id}/edit`, { url: "not a url", events: ["no.such.event"], payload: "everything" }));
    },
    "portal /webhooks/:id/deliveries/:deliveryId/resend": async () => {
      const { session } = await partnerAdmin();
      return action(() => p(session, "/webhooks/whe_nothere/deliveries/dlv_nothere/resend", {}));
    },

    "portal /prequalification": async () => {
      const { session } = await partnerAdmin();
      return form("country", 400, () => p(session, "/prequalification", { country: "Atlantis", "funding.amount": "lots", "funding.purpose": "yachts" }));
    },
    "portal /leads/new": async () => {
      const { session } = await partnerAdmin();
      // The first refused input in the page's order: the business name (too long) comes before the amount.
      return form("business.name", 400, () =>
        p(session, "/leads/new", { ...completeUkForm(), "funding.amount": "fifty", "funding.purpose": "yachts", "business.name": MISSING, "contact.email": "", intent: "save" }),
      );
    },
    "portal /leads/:id/hub-link": async () => {
      const { session } = await partnerAdmin();
      return action(() => p(session, "/leads/00000000-0000-4000-8000-000000000000/hub-link", {}));
    },
    "portal /leads/:id/edit": async () => {
      const { session, lead } = await partnerAdmin();
      const version = await leadVersion(lead.id);
      return form("funding.amount", 400, () => p(session, `/leads/${lead.id}/edit`, { ...completeUkForm(), "funding.amount": "12,34", "business.entity_type": "trust", intent: "save", version }));
    },
    "portal /leads/:id/submit": async () => {
      const { session } = await partnerAdmin();
      const { "business.company_number": _, ...withoutNumber } = completeUkForm();
      const saved = await portal("POST", "/leads/new", { session, form: { ...withoutNumber, intent: "save" } });
      const id = saved.location!.split("/").at(-1)!;
      // The check page's form names the version checked (issue 45 item 1); a submit missing a mandatory field is refused beside it.
      const version = await leadVersion(id);
      return form("business.company_number", 422, () => p(session, `/leads/${id}/submit`, { version }));
    },
    "portal /leads/:id/open-in-other-environment": async () => {
      // Another account's lead, or none: the plain 404 (issue 45 item 3).
      const { session } = await partnerAdmin();
      return action(() => p(session, "/leads/00000000-0000-4000-8000-000000000000/open-in-other-environment", {}));
    },
    "portal /leads/:id/application-link": async () => {
      // Another account's lead, or none: the 404 page, nothing made.
      const { session } = await partnerAdmin();
      return action(() => p(session, "/leads/00000000-0000-4000-8000-000000000000/application-link", {}));
    },
    "portal /leads/:id/persons": async () => {
      const { session, lead } = await partnerAdmin();
      const version = await leadVersion(lead.id);
      return form("full_name", 400, () => p(session, `/leads/${lead.id}/persons`, { full_name: "", date_of_birth: "yesterday", ownership_percent: "half", residency_status: "martian", version }));
    },
    "portal /leads/:id/persons/:person": async () => {
      const { session, lead } = await partnerAdmin();
      const version = await leadVersion(lead.id);
      const edit = Object.values(personLinksOf((await portal("GET", `/leads/${lead.id}/persons`, { session })).text))[0].replace(/^\/portal/, "").replace(/\/edit$/, "");
      return form("ownership_percent", 400, () => p(session, edit, { ...personForm(), ownership_percent: "150", version }));
    },
    "portal /leads/:id/persons/:person/remove": async () => {
      const { session, lead } = await partnerAdmin();
      return action(() => p(session, `/leads/${lead.id}/persons/7/remove`, {}));
    },
    "portal /leads/:id/documents": async () => {
      const { session, lead } = await partnerAdmin();
      return form("file", 400, async () => shown(await portalUpload(`/leads/${lead.id}/documents`, session, { document_type: "passport_photo" }), session.cookie));
    },
    // Confirmed, at a document that is not on the lead (or was removed in another tab): the 404 page.
    "portal /leads/:id/documents/:documentId/remove": async () => {
      const { session, lead } = await partnerAdmin();
      return action(() => p(session, `/leads/${lead.id}/documents/doc_nothere/remove`, { confirmed: "yes" }));
    },
    "portal /leads/:id/renewals": async () => {
      const { session } = await partnerAdmin();
      return action(() => p(session, "/leads/lead_nothere/renewals", {}));
    },
    "portal /leads/:id/simulate": async () => {
      const { session, lead } = await partnerAdmin();
      return form(null, 400, () => p(session, `/leads/${lead.id}/simulate`, { event: "explode" }));
    },
    "portal /leads/:id/offers/:offerId/accept": async () => {
      const { session, lead } = await partnerAdmin();
      return action(() => p(session, `/leads/${lead.id}/offers/off_nothere/accept`, { confirm: "yes" }));
    },
    "portal /leads/:id/offers/decline": async () => {
      const { session, lead } = await partnerAdmin();
      return action(() => p(session, `/leads/${lead.id}/offers/decline`, { offer_id: "off_nothere", reason_code: "found_elsewhere" }));
    },

    "portal /sandbox/deals": async () => {
      const { session } = await lenderSandbox();
      return form("amount", 400, () => p(session, "/sandbox/deals", { country: "GB", amount: "-5" }));
    },
    "portal /sandbox/deals/:ref/delete": async () => {
      const { session } = await lenderSandbox();
      return action(() => p(session, "/sandbox/deals/RF-NOTHERE/delete", { confirmed: "yes" }));
    },
    "portal /deals/:ref/offers": async () => {
      const { session, refA } = await sharedLiveDeal();
      return form("maturity", 400, () => p(session, `/deals/${refA}/offers`, { maturity: "solid", amount: "a lot", kind: "loan", term_months: "1.5", notes: "n".repeat(2001) }));
    },
    "portal /deals/:ref/status": async () => {
      const { session, refA } = await sharedLiveDeal();
      // The In review form's one field is hidden: its refusal is said at the form's button.
      return form(null, 400, () => p(session, `/deals/${refA}/status`, { status: "exploded", funded_amount: "lots" }));
    },
    "portal /deals/:ref/assign": async () => {
      const { session, refA } = await sharedLiveDeal();
      return form("assignee", 400, () => p(session, `/deals/${refA}/assign`, { assignee: "mem_nothere" }));
    },
    "portal /deals/:ref/notes": async () => {
      const { session, refA } = await sharedLiveDeal();
      return form("note_body", 400, () => p(session, `/deals/${refA}/notes`, { note_body: "" }));
    },
    "portal /deals/:ref/payout-account": async () => {
      const { session, refA } = await sharedLiveDeal();
      return action(() => p(session, `/deals/${refA}/payout-account`, {}));
    },
    "portal /deals/:ref/decline": async () => {
      const { session, refA } = await sharedLiveDeal();
      return form("reasons", 400, () => p(session, `/deals/${refA}/decline`, { confirmed: "yes", note: "n".repeat(20) }));
    },
    "portal /deals/:ref/funded": async () => {
      const { session, refA } = await sharedLiveDeal();
      // The shared deal has no accepted offer: refused about the deal, in words, before any field is read.
      return form(null, 409, () => p(session, `/deals/${refA}/funded`, { confirmed: "yes", funded_amount: "lots", funded_on: "2026-01-01" }));
    },
    "portal /deals/:ref/messages": async () => {
      const { session, refA } = await sharedLiveDeal();
      return form("body", 400, () => p(session, `/deals/${refA}/messages`, { body: "" }));
    },
    "portal /deals/:ref/requests": async () => {
      const { session, refA } = await sharedLiveDeal();
      return form("item_type", 400, () => p(session, `/deals/${refA}/requests`, { item_type: "dna_sample", note: MISSING }));
    },
    "portal /deals/:ref/requests/:id/waive": async () => {
      const { session, refA } = await sharedLiveDeal();
      return action(() => p(session, `/deals/${refA}/requests/req_nothere/waive`, { confirmed: "yes" }));
    },
    "portal /deals/:ref/simulate": async () => {
      const { session, refA } = await sharedLiveDeal();
      return form(null, 400, () => p(session, `/deals/${refA}/simulate`, { event: "explode" }));
    },
    "portal /deals/:ref/agreement": async () => {
      const { session, refA } = await sharedLiveDeal();
      return form("agreement", 400, async () => shown(await postAgreement(session, refA, null), session.cookie));
    },

    "hub /requests/:requestId": async () => {
      const { hub, refA, a, lead } = await sharedHubLead();
      const request = await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id });
      return form("file", 400, () => hubCall("POST", `${hub}/requests/${request.id}`, { multipart: filesForm() }));
    },
    // Confirmed, at a file that is not on the request (removed in another tab): the plain 404 page.
    "hub /requests/:requestId/files/:documentId/remove": async () => {
      const { hub, refA, a, lead } = await sharedHubLead();
      const request = await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id });
      return action(() => hubCall("POST", `${hub}/requests/${request.id}/files/doc_nothere/remove`, { form: { confirmed: "yes" } }));
    },
    "hub /offers/:offerId/acceptance": async () => {
      const { hub } = await sharedHubLead();
      return action(() => hubCall("POST", `${hub}/offers/off_nothere/acceptance`, { form: {} }));
    },
    "hub /offers/:offerId/decline": async () => {
      const { hub } = await sharedHubLead();
      return action(() => hubCall("POST", `${hub}/offers/off_nothere/decline`, { form: { reason_code: "found_elsewhere" } }));
    },
    "hub /deals/:ref/messages": async () => {
      const { hub, refA } = await sharedHubLead();
      return form("body", 400, () => hubCall("POST", `${hub}/deals/${refA}/messages`, { form: { subject: MISSING, body: "" } }));
    },
    "hub /deals/:ref/completion/account": async () => {
      const { hub, refA } = await acceptedHubLead();
      return form("account_holder_name", 400, () => hubCall("POST", `${hub}/deals/${refA}/completion/account`, { form: { sort_code: "12-34", account_number: "abc" } }));
    },
    // Submitted (with deals), so its consent is the providers' now: withdrawing is refused with the confirm page again.
    "hub /consent/withdraw": async () => {
      const { hub } = await sharedHubLead();
      return action(() => hubCall("POST", `${hub}/consent/withdraw`, { form: { confirmed: "yes" } }), 409);
    },

    // The application link's steps: each refused as the API's LeadPatch refuses it, beside the field.
    "apply /business": async () => form("business.name", 400, () => applyPost("/business", { form: { "business.name": MISSING, go: "next" } })),
    "apply /contact": async () => form("contact.email", 400, () => applyPost("/contact", { form: { "contact.email": "not an email", go: "next" } })),
    "apply /funding": async () => form("funding.amount", 400, () => applyPost("/funding", { form: { "funding.amount": "lots", go: "next" } })),
    "apply /trading": async () => form("trading.tib_months", 400, () => applyPost("/trading", { form: { "trading.tib_months": "many", go: "next" } })),
    "apply /persons": async () => form("full_name", 400, () => applyPost("/persons", { form: { ownership_percent: "50" } })),
    // A person no longer on the list (removed in another tab): back to the list, nothing done.
    "apply /persons/remove": async () => action(() => applyPost("/persons/remove", { form: { index: "7" } }), 303),
    "apply /documents": async () => form("file", 400, () => applyPost("/documents", { multipart: filesForm() })),
    "apply /consent": async () => form("agree", 400, () => applyPost("/consent", { form: { soft_credit_search: "yes" } })),
    // Nothing agreed yet, so nothing to withdraw.
    "apply /withdraw": async () => action(() => applyPost("/withdraw", { form: {} }), 409),

    "hub /deals/:ref/completion/signature": async () => {
      const { hub, refA, keys } = await acceptedHubLead();
      await hubCall("POST", `${hub}/deals/${refA}/completion/account`, { form: { account_holder_name: "Widgets Ltd", sort_code: "123456", account_number: "31926819" } });
      await call("PUT", `/v1/deals/${refA}/agreement`, { key: keys.a.live, rawBody: pdfBytes(), contentType: "application/pdf" });
      return form("full_name", 400, () => hubCall("POST", `${hub}/deals/${refA}/completion/signature`, { form: { full_name: " ", consent: "yes" } }));
    },
  };
}

const personForm = () => ({
  full_name: "Grace Hopper",
  date_of_birth: "1970-01-01",
  "residential_address.line1": "1 High Street",
  "residential_address.city": "London",
  "residential_address.postal_code": "SW1A 1AA",
  "residential_address.country": "GB",
  residency_status: "citizen",
  ownership_percent: "50",
});

// ---------------------------------------------------------------- the tests

describe("every portal and hub form words its refusals from the one map", () => {
  it("has a bad post for every POST route of the portal and the hub", () => {
    const routes = postRoutes();
    expect(routes.length).toBeGreaterThan(30);
    const covered = Object.keys(cases());
    expect(routes.filter((r) => !covered.includes(r)), "POST routes without a bad-post case here").toEqual([]);
    expect(covered.filter((c) => !routes.includes(c)), "cases for routes that no longer exist").toEqual([]);
  });

  for (const [route, make] of Object.entries(cases())) {
    it(`${route}: refused in the person's words`, { timeout: 60_000 }, async () => {
      const c = await make();
      const answer = await c.post();
      // A browser's post is answered with a page (or a redirect), never JSON: the area's error handler has the last word.
      if (c.kind !== "ceremony" && (answer.status < 300 || answer.status >= 400)) {
        expect(answer.text, `${route} answers a page: ${answer.text.slice(0, 200)}`).toMatch(/^\s*(?:<!doctype html>|<html)/i);
        expect(() => JSON.parse(answer.text), `${route} never answers JSON`).toThrow();
      }
      if (c.kind === "form") expectRefusedForm(answer, c, route);
      else if (c.kind === "action") expectAction(answer, c, route);
      else {
        // The ceremony steps answer the page's script in JSON (sign-in options answer any address alike, so nobody learns who is a member): never a 500, never a page.
        expect(answer.status, `${route}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
        expect(() => JSON.parse(answer.text), `${route} answers JSON`).not.toThrow();
      }
    });
  }
});

describe("a refused post is shown by its form page's GET, once, to the session that posted it (post/redirect/get)", () => {
  const refusedSettings = (session: PortalSession, raw = false) => portal("POST", "/settings", { session, raw, form: { display_name: "Ada\u202eLovelace", time_zone: "Europe/London" } });
  const keptPage = async (id: string) => (await env.DB.prepare("select page from refused_posts where id_hash = ?").bind(await sha256Hex(id)).first<{ page: string }>())?.page ?? null;
  const refusedIdOf = (location: string | null) => new URL(location ?? "", PRODUCTION).searchParams.get("refused") ?? "";
  const freshForm = (html: string) => !html.includes('aria-invalid="true"') && !html.includes('class="field-error"');

  it("keeps the page hashed and without its form token; another session, a used id and an expired one see the form afresh", { timeout: 60_000 }, async () => {
    const { organisation } = await partnerAdmin();
    const session = await signedInMember(organisation.id, "admin");
    const other = await signedInMember(organisation.id, "admin");

    const posted = await refusedSettings(session, true);
    expect(posted.status).toBe(303);
    expect(new URL(posted.headers.get("Location")!, PRODUCTION).pathname).toBe("/portal/settings");
    const id = refusedIdOf(posted.headers.get("Location"));
    const kept = await keptPage(id);
    // Stored under the id's hash (the id is a bearer), the typed name beside its message, no form token of the page.
    expect(kept).toContain('aria-invalid="true"');
    expect(kept).not.toMatch(/name="_form_token" value="(?:sandbox|live)\./);
    expect(await env.DB.prepare("select count(*) as n from refused_posts where id_hash = ? or session_hash = ?").bind(id, session.sessionId).first<{ n: number }>()).toEqual({ n: 0 });

    // Another member's session presenting the id: the form afresh, nothing of the first member's; the id is spent.
    const foreign = await portal("GET", `/settings?refused=${id}`, { session: other });
    expect(foreign.status).toBe(200);
    expect(freshForm(foreign.text)).toBe(true);
    expect(await keptPage(id)).toBeNull();
    const spent = await portal("GET", `/settings?refused=${id}`, { session });
    expect(spent.status).toBe(200);
    expect(freshForm(spent.text)).toBe(true);

    // Its own session: the refusal's status and message once, with this page's own form token; a reload (Back to it) is the form afresh.
    const again = await refusedSettings(session);
    expect(again.status).toBe(400);
    expect(again.text).toContain('aria-invalid="true"');
    expect(again.text).toMatch(/name="_form_token" value="sandbox\.[^"]+"/);
    const reload = await portal("GET", `/settings?refused=${refusedIdOf(again.via)}`, { session });
    expect(reload.status).toBe(200);
    expect(freshForm(reload.text)).toBe(true);

    // What nobody came back for: the cron's sweep drops it after its minutes, and its GET shows the form afresh.
    const late = refusedIdOf((await refusedSettings(session, true)).headers.get("Location"));
    expect(await sweepRefusedPosts(testDeps({ now: new Date(Date.now() + REFUSED_POST_TTL_MS + 60_000) }))).toBeGreaterThanOrEqual(1);
    expect(await keptPage(late)).toBeNull();
    expect(freshForm((await portal("GET", `/settings?refused=${late}`, { session })).text)).toBe(true);
  });
});
