// Issue 44: the application link and consent the service can prove. The partner API's side (the
// consent texts, the receipt, the link's life) and the pages behind the link (token traded for a
// session, steps saved through the API's own schemas and services, locked fields, agreement,
// withdrawal), with the links that must all look the same: guessed, used, expired, revoked, tampered,
// and a sandbox link on the production host.
import { env, exports } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { call, newClientAddress, PRODUCTION, SANDBOX, throughEdge } from "../helpers/api";
import { expectProblem, partnerWithKeys } from "../helpers/seed";
import { completeUkLead, createLead, freshCompanyNumber } from "./helpers";
import { COMMISSION_DISCLOSURES, CONSENT_TEXTS } from "../../src/domain/leads/consent-texts";
import { followRefused, portal, signedInMember } from "../helpers/portal";
import { auditOf } from "../portal/partner/helpers";
import { panelOf, putProducts, termLoan } from "../helpers/panel";
import { createOrganisation } from "../helpers/seed";
import { consume, dispatch, receiverBucket, register, settleOutbox } from "../webhooks/support/webhooks";
import { settle } from "../registers/lookups-support";
import { APPLICATION_REQUESTS_PER_LINK, APPLICATION_LIMIT_WINDOW_SECONDS, applicationLinkBucket } from "../../src/domain/leads/application-link";

const eventsOf = async (leadId: string) =>
  (await env.DB.prepare("select event, detail from events where subject_id = ? order by created_at, rowid").bind(leadId).all<{ event: string; detail: string }>()).results.map((r) => ({
    event: r.event,
    detail: JSON.parse(r.detail),
  }));

describe("consent texts and the receipt", () => {
  it("serves each published version with every market locale's text and its sha256; an unknown version is 404", async () => {
    const { live } = await partnerWithKeys();
    const [first] = CONSENT_TEXTS;
    const res = await call("GET", `/partner/v1/consent-texts/${first!.version}`, { key: live.key });
    expect(res.status).toBe(200);
    expect(res.body.texts.map((t: { locale: string }) => t.locale).sort()).toEqual(["da-DK", "en-AU", "en-CA", "en-GB", "en-IE", "en-US", "es-ES", "fr-FR", "nl-BE", "nl-NL", "pl-PL", "sv-SE"]);
    for (const t of res.body.texts) {
      const digest = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(t.text))), (b) => b.toString(16).padStart(2, "0")).join("");
      expect(digest, t.locale).toBe(t.sha256);
    }
    expectProblem(await call("GET", "/partner/v1/consent-texts/1999-01", { key: live.key }), 404, "not_found");
  });

  it("writes a partner_api receipt for a declared published version, kept through unrelated changes, and fires lead.consent_captured once", async () => {
    const { live } = await partnerWithKeys();
    const version = CONSENT_TEXTS.at(-1)!.version;
    const lead = await createLead(live.key, { ...completeUkLead(), consent: { obtained: true, obtained_at: "2026-11-01T10:00:00Z", soft_credit_search: true, text_version: version } });
    const en = CONSENT_TEXTS.at(-1)!.texts.find((t) => t.locale === "en-GB")!;
    expect(lead.consent.receipt).toEqual({ text_version: version, text_sha256: en.sha256, locale: "en-GB", agreed_at: "2026-11-01T10:00:00Z", channel: "partner_api", soft_credit_search: true, disclosure_version: null, disclosure_locale: null, disclosure_sha256: null });
    // An unrelated change keeps the receipt and fires nothing more.
    const patched = await call("PATCH", `/partner/v1/leads/${lead.id}`, { key: live.key, body: { business: { name: "Widgets Two Ltd" } } });
    expect(patched.body.consent.receipt).toEqual(lead.consent.receipt);
    expect((await eventsOf(lead.id)).filter((e) => e.event === "lead.consent_captured")).toHaveLength(1);
    // Without a text version there is nothing to prove: no receipt, as before issue 44.
    const bare = await createLead(live.key);
    expect(bare.consent).toMatchObject({ obtained: true, receipt: null, text_version: null });
  });

  it("refuses a text version that is not published (422 unknown_code on consent.text_version), on create and on PATCH", async () => {
    const { live } = await partnerWithKeys();
    const created = await call("POST", "/partner/v1/leads", { key: live.key, body: { ...completeUkLead(), consent: { obtained: true, text_version: "2000-01" } } });
    expectProblem(created, 422, "unknown_code");
    expect(created.body.error.field).toBe("consent.text_version");
    const lead = await createLead(live.key);
    const patched = await call("PATCH", `/partner/v1/leads/${lead.id}`, { key: live.key, body: { consent: { text_version: "nope" } } });
    expectProblem(patched, 422, "unknown_code");
  });
});

/** A browser of its own: one client address, the cookies it was given, requests through the edge. */
function browser(host = PRODUCTION) {
  const address = newClientAddress();
  const jar = new Map<string, string>();
  async function go(method: string, path: string, form?: Record<string, string>, extra: Record<string, string> = {}) {
    const headers: Record<string, string> = { "CF-Connecting-IP": address, ...extra };
    if (jar.size) headers.Cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    let body: BodyInit | undefined;
    if (form) {
      body = new URLSearchParams(form).toString();
      headers["Content-Type"] = "application/x-www-form-urlencoded";
    }
    const res = await exports.default.fetch(new Request(`${host}${path}`, { method, headers, body, redirect: "manual", ...throughEdge(headers) }));
    for (const cookie of [res.headers.get("Set-Cookie")].filter((v): v is string => Boolean(v))) {
      const [pair] = cookie.split(";");
      const [name, value] = pair!.split("=");
      jar.set(name!, value!);
    }
    // A refused post is answered 303 to its step's page, which shows the refusal once: followed as a browser does.
    return followRefused(res, method === "POST" ? headers.Cookie : undefined, { headers: { "CF-Connecting-IP": address }, origin: host });
  }
  return { get: (path: string, extra?: Record<string, string>) => go("GET", path, undefined, extra), post: (path: string, form: Record<string, string>) => go("POST", path, form), jar };
}

const pathOf = (url: string) => new URL(url).pathname;

/** A live GB lead opened with three fields, and a link for it. */
async function leadWithLink(linkBody: Record<string, unknown> = {}) {
  const partner = await partnerWithKeys();
  const lead = await createLead(partner.live.key, { country: "GB", business: { name: "Acme Widgets Ltd" }, contact: { email: "owner@acme.example" } });
  const link = await call("POST", `/partner/v1/leads/${lead.id}/application-link`, { key: partner.live.key, body: linkBody });
  expect(link.status).toBe(201);
  return { partner, lead, link: link.body };
}

/** A panel of one GB term loan (other files' products set aside), so a complete application routes to one option. */
async function oneProductPanel() {
  const lender = await createOrganisation("lender");
  expect((await putProducts(lender.id, [termLoan])).status).toBe(200);
  await panelOf(lender.id);
}

const BUSINESS = () => ({ "business.name": "Acme Widgets Ltd", "business.company_number": freshCompanyNumber(), "business.entity_type": "private_limited_company", "business.industry": "ecommerce", go: "next" });

/** Every step of the walk as a business fills it in, the amounts as people type them. */
async function fillEveryStep(b: ReturnType<typeof browser>) {
  expect((await b.post("/apply/business", BUSINESS())).headers.get("Location")).toBe("/apply/business/check");
  expect((await b.post("/apply/contact", { "contact.first_name": "Ada", "contact.last_name": "Lovelace", "contact.email": "owner@acme.example", "contact.phone": "+44 20 7946 0000", go: "next" })).status).toBe(303);
  expect((await b.post("/apply/funding", { "funding.amount": "50,000", "funding.purpose": "working_capital", "funding.product_family": "business_loan", go: "next" })).status).toBe(303);
  expect((await b.post("/apply/trading", { "trading.monthly_revenue": "30,000", "trading.annual_turnover": "360,000", "trading.tib_months": "36", go: "next" })).headers.get("Location")).toBe("/apply/persons");
  const person = { full_name: "Ada Lovelace", date_of_birth: "1975-03-12", "residential_address.line1": "1 High Street", "residential_address.city": "London", "residential_address.postal_code": "SW1A 1AA", ownership_percent: "60" };
  expect((await b.post("/apply/persons", person)).status).toBe(303);
}

describe("the link's life (partner API)", () => {
  it("answers 201 {url, expires_at, state: sent}; the token is never shown again; a second link revokes the first and its session", async () => {
    const { partner, lead, link } = await leadWithLink({ expires_in: 3600, submit: "review" });
    expect(link).toMatchObject({ state: "sent", submit: "review", locked: [] });
    expect(link.url).toMatch(/^http:\/\/localhost:8787\/apply\/[0-9a-z]{48}$/);
    const token = pathOf(link.url).split("/")[2];
    const stored = await env.DB.prepare("select token_hash from application_links where id = ?").bind(link.id).first<{ token_hash: string }>();
    expect(stored!.token_hash).not.toContain(token);
    const read = await call("GET", `/partner/v1/leads/${lead.id}/application-link`, { key: partner.live.key });
    expect(read.body.state).toBe("sent");
    expect(read.text).not.toContain(token);

    const first = browser();
    expect((await first.get(pathOf(link.url))).status).toBe(303);
    expect((await first.get("/apply")).status).toBe(200);
    const second = await call("POST", `/partner/v1/leads/${lead.id}/application-link`, { key: partner.live.key, body: {} });
    expect(second.body.url).not.toBe(link.url);
    // The first link and the session it opened are dead, and look like any dead link.
    expect((await first.get("/apply")).status).toBe(404);
    const reopened = await browser().get(pathOf(link.url));
    expect(reopened.status).toBe(404);
    expect(reopened.text).toContain("Ask the person who sent it for a new link");
    expect((await env.DB.prepare("select state from application_links where id = ?").bind(link.id).first<{ state: string }>())!.state).toBe("revoked");
  });

  it("refuses a submitted lead (409 lead_submitted), an unknown lockable field (400), and another account's lead (404)", async () => {
    const partner = await partnerWithKeys();
    const other = await partnerWithKeys();
    const lead = await createLead(partner.live.key);
    expectProblem(await call("POST", `/partner/v1/leads/${lead.id}/application-link`, { key: partner.live.key, body: { locked: ["business.nickname"] } }), 400, "invalid_request");
    expectProblem(await call("POST", `/partner/v1/leads/${lead.id}/application-link`, { key: other.live.key, body: {} }), 404, "not_found");
    expect((await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: partner.live.key })).status).toBe(200);
    expectProblem(await call("POST", `/partner/v1/leads/${lead.id}/application-link`, { key: partner.live.key, body: {} }), 409, "lead_submitted");
  });
});

describe("the pages behind the link", () => {
  it("walks every step, agrees, and leaves the lead ready to submit with a receipt the partner can check against the text it names", async () => {
    const { partner, lead, link } = await leadWithLink({ submit: "review", return_url: "https://partner.example/done" });
    const b = browser();
    const opened = await b.get(pathOf(link.url));
    expect(opened.status).toBe(303);
    expect(opened.headers.get("Location")).toBe("/apply");
    expect(opened.headers.get("Set-Cookie")).toMatch(/^rfs_apply=[0-9a-z]{48}; Max-Age=\d+; Path=\/apply; HttpOnly; SameSite=Strict/);
    const welcome = await b.get("/apply");
    expect(welcome.text).toContain("asked you to fill in your application");
    expect(welcome.text).toContain("Nothing here is a credit search");
    expect(welcome.headers.get("Content-Security-Policy")).toContain("default-src 'none'");
    // Prefilled: what the partner wrote.
    expect((await b.get("/apply/business")).text).toContain('value="Acme Widgets Ltd"');
    await fillEveryStep(b);
    // Leaving mid-way and coming back with the same link: a new session, the answers kept.
    const again = browser();
    expect((await again.get(pathOf(link.url))).status).toBe(303);
    expect((await again.get("/apply/funding")).text).toContain('value="50000"');
    expect((await b.get("/apply/review")).status).toBe(404); // one browser per link at a time
    const review = await again.get("/apply/review");
    expect(review.text).toContain("£50,000");
    expect(review.text).not.toContain("Some answers are still needed");
    const consent = await again.get("/apply/consent");
    expect(consent.text).toContain("may receive commission from the lender");
    expect(consent.text).toContain("a percentage of the amount funded or a fixed fee, paid by the lender");
    // Agreement is its own tick; the soft search another.
    expect((await again.post("/apply/consent", { soft_credit_search: "yes" })).status).toBe(400);
    const agreed = await again.post("/apply/consent", { agree: "yes" });
    expect(agreed.headers.get("Location")).toBe("/apply/done");
    const done = await again.get("/apply/done");
    expect(done.text).toContain("What happens next");
    expect(done.text).toContain('href="https://partner.example/done"');

    const read = await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key });
    expect(read.body.state).toBe("draft");
    expect(read.body.steps.organisation_details_complete).toBe(true);
    const receipt = read.body.consent.receipt;
    expect(receipt).toMatchObject({ channel: "application_link", locale: "en-GB", soft_credit_search: false, disclosure_version: expect.any(String), disclosure_locale: "en-GB" });
    const text = await call("GET", `/partner/v1/consent-texts/${receipt.text_version}`, { key: partner.live.key });
    expect(text.body.kind).toBe("consent_text");
    expect(text.body.texts.find((t: { locale: string }) => t.locale === receipt.locale).sha256).toBe(receipt.text_sha256);
    // The disclosure shown beside it, served by the same route: the text the page showed, with {name} where the partner's name was.
    const disclosure = await call("GET", `/partner/v1/consent-texts/${receipt.disclosure_version}`, { key: partner.live.key });
    expect(disclosure.body.kind).toBe("commission_disclosure");
    const shown = disclosure.body.texts.find((t: { locale: string }) => t.locale === receipt.disclosure_locale);
    expect(shown.sha256).toBe(receipt.disclosure_sha256);
    expect(shown.text).toContain("{name} may receive commission from the lender");
    expect((await call("GET", `/partner/v1/leads/${lead.id}/application-link`, { key: partner.live.key })).body.state).toBe("completed");
    // The client hub shows the same receipt.
    const hub = browser();
    expect((await hub.get(pathOf(read.body.upload_url))).status).toBe(303);
    const overview = await hub.get(`/hub/${lead.id}`);
    expect(overview.text).toContain(`<code>${receipt.text_sha256}</code>`);
    expect(overview.text).toContain(`version ${receipt.text_version} (en-GB)`);
    expect(overview.text).toContain(`version ${receipt.disclosure_version} (en-GB)`);
    const events = (await eventsOf(lead.id)).map((e) => e.event);
    expect(events.filter((e) => ["lead.application_opened", "lead.consent_captured", "lead.application_completed"].includes(e))).toEqual([
      "lead.application_opened",
      "lead.consent_captured",
      "lead.application_completed",
    ]);
    // Used: the link now reads like any dead link, with the partner's way back.
    const used = await browser().get(pathOf(link.url));
    expect(used.status).toBe(404);
    expect(used.text).toContain('href="https://partner.example/done"');
    // The partner's submit goes through.
    expect((await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: partner.live.key })).status).toBe(200);
  });

  it("refuses what the API refuses, beside the field, with a summary at the top; bidi controls included; nothing saved", async () => {
    const { link } = await leadWithLink();
    const b = browser();
    await b.get(pathOf(link.url));
    const refused = await b.post("/apply/contact", { "contact.email": "not an email", "contact.first_name": "Ada\u202Eevil", go: "next" });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("There is a problem");
    expect(refused.text).toMatch(/id="f-contact-email-error"/);
    expect(refused.text).toMatch(/id="f-contact-first_name-error"/);
    expect(refused.text).toContain('href="#f-contact-email"');
    expect((await b.get("/apply/contact")).text).toContain('value="owner@acme.example"');
  });

  it("shows locked fields without an input and refuses a changed one (422 beside it, nothing saved)", async () => {
    const { partner, lead, link } = await leadWithLink({ locked: ["business.name"] });
    const b = browser();
    await b.get(pathOf(link.url));
    const page = await b.get("/apply/business");
    expect(page.text).not.toContain('name="business.name"');
    expect(page.text).toContain("Acme Widgets Ltd");
    const changed = await b.post("/apply/business", { ...BUSINESS(), "business.name": "Someone Else Ltd" });
    expect(changed.status).toBe(422);
    expect(changed.text).toContain("cannot be changed here");
    expect((await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key })).body.business.name).toBe("Acme Widgets Ltd");
    const { "business.name": _dropped, ...rest } = BUSINESS();
    expect((await b.post("/apply/business", rest)).status).toBe(303);
  });

  it("withdrawal before submit: lead.consent_withdrawn, then the partner's submit answers 422 consent_required", async () => {
    const { partner, lead, link } = await leadWithLink();
    const b = browser();
    await b.get(pathOf(link.url));
    await fillEveryStep(b);
    // A second person whose share takes the total past 100%: the list's own rule, beside the share; a name left out, beside the name.
    const over = await b.post("/apply/persons", { full_name: "", date_of_birth: "1980-01-01", "residential_address.line1": "2 High Street", "residential_address.postal_code": "SW1A 1AA", ownership_percent: "50" });
    expect(over.status).toBe(400);
    expect(over.text).toMatch(/id="f-full_name-error"><span class="skip">Error: <\/span>Enter the full name of the person\./);
    const total = await b.post("/apply/persons", { full_name: "Grace Hopper", date_of_birth: "1980-01-01", "residential_address.line1": "2 High Street", "residential_address.postal_code": "SW1A 1AA", ownership_percent: "50" });
    expect(total.status).toBe(400);
    expect(total.text).toMatch(/id="f-ownership_percent-error"><span class="skip">Error: <\/span>The ownership of all significant persons adds up to more than 100%\./);
    expect(total.text).toContain('value="Grace Hopper"');
    expect((await b.post("/apply/consent", { agree: "yes", soft_credit_search: "yes" })).status).toBe(303);
    expect((await b.post("/apply/withdraw", {})).headers.get("Location")).toBe("/apply/done?done=withdrawn");
    expect((await b.get("/apply/done")).text).toContain("You withdrew your consent");
    const read = await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key });
    expect(read.body.consent).toMatchObject({ obtained: false, withdrawn_at: expect.any(String), receipt: { channel: "application_link", soft_credit_search: true } });
    expect((await eventsOf(lead.id)).find((e) => e.event === "lead.consent_withdrawn")!.detail).toMatchObject({ withdrawn_at: read.body.consent.withdrawn_at, withdrawn_via: "application_link" });
    expectProblem(await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: partner.live.key }), 422, "consent_required");
    // Nothing left to withdraw: a second post is refused with a page, and fires nothing more.
    const again = await b.post("/apply/withdraw", {});
    expect(again.status).toBe(409);
    expect(again.text).toContain("There is no consent to withdraw");
    expect((await eventsOf(lead.id)).filter((e) => e.event === "lead.consent_withdrawn")).toHaveLength(1);
  });

  it("a crafted withdrawal on a link never agreed is refused (409) with a refusal page, not the done page; the done page sends such a link back to its steps", async () => {
    const { partner, lead, link } = await leadWithLink();
    const b = browser();
    await b.get(pathOf(link.url));
    const refused = await b.post("/apply/withdraw", {});
    expect(refused.status).toBe(409);
    expect(refused.text).toContain("<title>That did not work");
    expect(refused.text).not.toContain("Your application was sent");
    expect(refused.text).toContain("There is no consent to withdraw");
    expect(refused.text).toContain('href="/apply"');
    const done = await b.get("/apply/done");
    expect(done.status).toBe(303);
    expect(done.headers.get("Location")).toBe("/apply");
    expect((await eventsOf(lead.id)).map((e) => e.event)).not.toContain("lead.consent_withdrawn");
    expect((await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key })).body.consent.withdrawn_at ?? null).toBeNull();
  });

  it("withdrawal from the client hub before submission: a confirm page, lead.consent_withdrawn with the write, then 422 consent_required", async () => {
    const partner = await partnerWithKeys();
    // Consent the partner declared (no receipt): the business's to withdraw all the same.
    const lead = await createLead(partner.live.key);
    expect(lead.consent.obtained).toBe(true);
    const hub = browser();
    expect((await hub.get(pathOf(lead.upload_url))).status).toBe(303);
    const base = `/hub/${lead.id}`;
    const overview = await hub.get(base);
    expect(overview.text).toContain(`href="${base}/consent/withdraw"`);
    const confirm = await hub.get(`${base}/consent/withdraw`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain("Withdraw your consent to this application?");
    expect(confirm.text).toContain("declared by your adviser");
    // A post without the confirm page's field (a stale page, a script) is sent to the question, nothing done.
    const unconfirmed = await hub.post(`${base}/consent/withdraw`, {});
    expect(unconfirmed.status).toBe(303);
    expect(unconfirmed.headers.get("Location")).toBe(`${base}/consent/withdraw`);
    expect((await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key })).body.consent.obtained).toBe(true);

    const withdrawn = await hub.post(`${base}/consent/withdraw`, { confirmed: "yes" });
    expect(withdrawn.status).toBe(303);
    expect(withdrawn.headers.get("Location")).toBe(`${base}?done=consent_withdrawn`);
    const after = await hub.get(`${base}?done=consent_withdrawn`);
    expect(after.text).toContain("You withdrew your consent.");
    expect(after.text).not.toContain(`href="${base}/consent/withdraw"`);
    const read = await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key });
    expect(read.body.consent).toMatchObject({ obtained: false, withdrawn_at: expect.any(String) });
    // The event is written in the withdrawal's own batch: the same time as the lead's write.
    const event = await env.DB.prepare("select detail, created_at from events where subject_id = ? and event = 'lead.consent_withdrawn'").bind(lead.id).all<{ detail: string; created_at: string }>();
    expect(event.results).toHaveLength(1);
    expect(JSON.parse(event.results[0]!.detail)).toMatchObject({ withdrawn_at: read.body.consent.withdrawn_at, withdrawn_via: "client_hub" });
    expect(event.results[0]!.created_at).toBe(read.body.updated_at);
    expectProblem(await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: partner.live.key }), 422, "consent_required");
    // Nothing left to withdraw: the confirm page says so, and a post is refused (409) without an event.
    expect((await hub.get(`${base}/consent/withdraw`)).text).toContain("There is no consent to withdraw here any more.");
    const again = await hub.post(`${base}/consent/withdraw`, { confirmed: "yes" });
    expect(again.status).toBe(409);
    expect(again.text).toContain("There is no consent to withdraw");
  });

  it("after submission the hub says who to ask, and a withdrawal post is refused (409) with nothing written", async () => {
    await oneProductPanel(); // routed, so its hub stays open (an out-of-scope lead's hub is read-only: test/hub/hub-link.test.ts)
    const partner = await partnerWithKeys();
    const lead = await createLead(partner.live.key, { ...completeUkLead(), trading: { monthly_revenue: 30_000, tib_months: 36, annual_turnover: 360_000 } });
    expect((await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: partner.live.key })).body.state).toBe("matched");
    const hub = browser();
    await hub.get(pathOf(lead.upload_url));
    const base = `/hub/${lead.id}`;
    const overview = await hub.get(base);
    expect(overview.text).toContain("can no longer be withdrawn here: ask your adviser");
    const refused = await hub.post(`${base}/consent/withdraw`, { confirmed: "yes" });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain("already sent to funding providers");
    expect((await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key })).body.consent).toMatchObject({ obtained: true, withdrawn_at: null });
    expect((await eventsOf(lead.id)).map((e) => e.event)).not.toContain("lead.consent_withdrawn");
  });

  it("guessed, tampered, expired, revoked and wrong-host links all answer the same page", async () => {
    const { partner, lead, link } = await leadWithLink();
    const token = pathOf(link.url).split("/")[2]!;
    const tampered = `${token.slice(0, -1)}${token.endsWith("a") ? "b" : "a"}`;
    const guessed = "0".repeat(48);
    const pages = [await browser().get(`/apply/${guessed}`), await browser().get(`/apply/${tampered}`)];
    // A live lead's link on the sandbox host.
    pages.push(await browser(SANDBOX).get(pathOf(link.url)));
    await env.DB.prepare("update application_links set expires_at = '2000-01-01T00:00:00.000Z' where id = ?").bind(link.id).run();
    pages.push(await browser().get(pathOf(link.url)));
    const fresh = await call("POST", `/partner/v1/leads/${lead.id}/application-link`, { key: partner.live.key, body: {} });
    expect((await call("DELETE", `/partner/v1/leads/${lead.id}/application-link`, { key: partner.live.key })).body.state).toBe("revoked");
    pages.push(await browser().get(pathOf(fresh.body.url)));
    for (const page of pages) {
      expect(page.status).toBe(404);
      expect(page.text).toBe(pages[0]!.text);
      expect(page.headers.get("Set-Cookie")).toBeNull();
    }
  });

  it("a sandbox lead's link is on the sandbox host, opens there, and is dead on the production host", async () => {
    const partner = await partnerWithKeys();
    const lead = await call("POST", "/partner/v1/leads", { key: partner.sandbox.key, host: SANDBOX, body: { country: "GB", business: { name: "Sandbox Ltd" } } });
    const link = await call("POST", `/partner/v1/leads/${lead.body.id}/application-link`, { key: partner.sandbox.key, host: SANDBOX, body: {} });
    expect(new URL(link.body.url).hostname).toBe("sandbox.localhost");
    expect((await browser().get(pathOf(link.body.url))).status).toBe(404);
    expect((await browser(SANDBOX).get(pathOf(link.body.url))).status).toBe(303);
  });
});

describe("the pages in the market's language", () => {
  it("walks a Spanish lead in Spanish: the page's lang, its words, amounts typed and shown as in Spain, and the receipt in es-ES", async () => {
    const partner = await partnerWithKeys();
    const lead = await createLead(partner.live.key, { country: "ES", business: { name: "Tapas Madrid SL" } });
    const link = await call("POST", `/partner/v1/leads/${lead.id}/application-link`, { key: partner.live.key, body: {} });
    const b = browser();
    expect((await b.get(pathOf(link.body.url))).status).toBe(303);
    const welcome = await b.get("/apply");
    expect(welcome.text).toContain('<html lang="es-ES">');
    expect(welcome.text).toContain("Solicite financiación para su empresa");
    expect(welcome.text).toContain("Nada de esto es una consulta de crédito");
    // The reference lists' labels in Spanish, by code: the selects and, below, the review.
    const business = await b.get("/apply/business");
    expect(business.text).toContain('<option value="hospitality">Hostelería (restaurantes, bares, hoteles)</option>');
    expect(business.text).toContain('<option value="sociedad_limitada">Sociedad limitada (SL)</option>');
    const funding = await b.get("/apply/funding");
    expect(funding.text).toContain('<option value="working_capital">Capital circulante</option>');
    expect(funding.text).toContain('<option value="business_loan">Préstamo para empresas</option>');
    expect(funding.text).toContain("¿Cuánto necesita (EUR)?");
    expect(funding.text).toContain("Guardar y continuar");
    // A refused step speaks Spanish, its messages too: worded by each problem's kind and field, not by the English words.
    const refused = await b.post("/apply/funding", { "funding.amount": "mucho", go: "next" });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("Hay un problema");
    expect(refused.text).toContain('<html lang="es-ES">');
    expect(refused.text).toMatch(/id="f-funding-amount-error"><span class="skip">Error: <\/span>Escriba un número, por ejemplo 50 000\.<\/span>/);
    // Two bad fields of the business step: each message in Spanish beside its field, and in the summary after the field's label.
    const business2 = await b.post("/apply/business", { "business.name": "Tapas\u202EMadrid", "business.entity_type": "sociedad_limitada", "business.industry": "piratería", go: "next" });
    expect(business2.status).toBe(400);
    const plain = "Escríbalo como texto normal: quite cualquier carácter invisible o de dirección del texto";
    const choose = "Elija una opción de la lista.";
    expect(business2.text).toMatch(new RegExp(`id="f-business-name-error"><span class="skip">Error: </span>${plain}`));
    expect(business2.text).toMatch(new RegExp(`id="f-business-industry-error"><span class="skip">Error: </span>${choose}</span>`));
    expect(business2.text).toContain(`<a href="#f-business-name">Nombre de la empresa: ${plain}`);
    expect(business2.text).toContain(`<a href="#f-business-industry">Sector: ${choose}</a>`);
    expect(business2.text).not.toMatch(/Choose the|Write the|Enter the/);
    expect((await b.post("/apply/business", { "business.name": "Tapas Madrid SL", "business.entity_type": "sociedad_limitada", "business.industry": "hospitality", go: "next" })).headers.get("Location")).toBe("/apply/contact");
    expect((await b.post("/apply/contact", { "contact.first_name": "Lucía", "contact.last_name": "García", "contact.email": "lucia@tapas.example", "contact.phone": "+34 910 000 000", go: "next" })).status).toBe(303);
    // Amounts as people type them here: grouped with a space.
    expect((await b.post("/apply/funding", { "funding.amount": "50 000", "funding.purpose": "working_capital", "funding.product_family": "business_loan", go: "next" })).status).toBe(303);
    expect((await b.post("/apply/trading", { "trading.monthly_revenue": "30 000", "trading.annual_turnover": "360 000", "trading.tib_months": "36", go: "next" })).status).toBe(303);
    const person = { full_name: "Lucía García", date_of_birth: "1980-05-02", "residential_address.line1": "Calle Mayor 1", "residential_address.city": "Madrid", "residential_address.postal_code": "28013", ownership_percent: "100" };
    expect((await b.post("/apply/persons", person)).headers.get("Location")).toBe("/apply/persons?done=added");
    expect((await b.get("/apply/persons?done=added")).text).toContain("Se añadió la persona.");
    const noFile = await b.post("/apply/documents", {});
    expect(noFile.status).toBe(400);
    expect(noFile.text).toMatch(/id="f-file-error">Elija un archivo para subir\.<\/span>/);
    const review = await b.get("/apply/review");
    expect(review.text).toContain("Revise sus respuestas");
    // The market's money format (es-ES): the dot groups thousands and the euro sign follows.
    expect(review.text).toMatch(/50\.000(?:\s|&nbsp;|\u00a0)€/);
    expect(review.text).not.toContain("Faltan algunas respuestas");
    for (const label of ["Hostelería (restaurantes, bares, hoteles)", "Capital circulante", "Préstamo para empresas"]) expect(review.text).toContain(`<bdi>${label}</bdi>`);
    const consent = await b.get("/apply/consent");
    expect(consent.text).toContain('lang="es-ES" id="consent-text"');
    expect(consent.text).toContain("Confirmo que puedo actuar en nombre de esta empresa");
    // The commission disclosure in Spanish too, marked so, the introducer's name isolated in it.
    expect(consent.text).toMatch(/<p id="commission-disclosure" lang="es-ES"><bdi>[^<]+<\/bdi> puede recibir una comisión del prestamista/);
    expect(consent.text).not.toContain("may receive commission");
    expect(consent.text).toContain("Aceptar y enviar mi solicitud");
    expect((await b.post("/apply/consent", { agree: "yes" })).status).toBe(303);
    const done = await b.get("/apply/done");
    expect(done.text).toContain("Su solicitud se ha enviado");
    expect(done.text).toContain("Retirar mi consentimiento");
    const read = await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key });
    expect(read.body.funding.amount).toBe(50_000);
    expect(read.body.consent.receipt).toMatchObject({ locale: "es-ES", channel: "application_link" });
    const es = CONSENT_TEXTS.find((v) => v.version === read.body.consent.receipt.text_version)!.texts.find((t) => t.locale === "es-ES")!;
    expect(read.body.consent.receipt.text_sha256).toBe(es.sha256);
    const disclosure = COMMISSION_DISCLOSURES.find((v) => v.version === read.body.consent.receipt.disclosure_version)!.texts.find((t) => t.locale === "es-ES")!;
    expect(read.body.consent.receipt).toMatchObject({ disclosure_locale: "es-ES", disclosure_sha256: disclosure.sha256 });
  });

  it("shows the register's answer in the page's language: a Polish sandbox company in liquidation, incorporated, in Polish", async () => {
    const partner = await partnerWithKeys();
    const lead = await call("POST", "/partner/v1/leads", { key: partner.sandbox.key, host: SANDBOX, body: { country: "PL", business: { name: "Handel" } } });
    const link = await call("POST", `/partner/v1/leads/${lead.body.id}/application-link`, { key: partner.sandbox.key, host: SANDBOX, body: {} });
    const b = browser(SANDBOX);
    await b.get(pathOf(link.body.url));
    const saved = await b.post("/apply/business", { "business.name": "Handel", "business.company_number": "0000000002", "business.entity_type": "spolka_z_oo", "business.industry": "retail", go: "next" });
    expect(saved.headers.get("Location")).toBe("/apply/business/check");
    await settle(lead.body.id); // the register's answer, as the lookup queue would deliver it
    const check = await b.get("/apply/business/check");
    expect(check.text).toContain('<html lang="pl-PL">');
    expect(check.text).toMatch(/<bdi>SANDBOX HANDEL SP\. Z O\.O\.<\/bdi><\/strong>, w likwidacji, zarejestrowana /);
    expect(check.text).not.toContain("liquidation");
    expect((await b.get("/apply/business")).text).toContain('<option value="retail" selected="">Handel detaliczny</option>');
  });

  it("offers a Belgian lead in French when the browser asks for it (with the French consent text), else in Dutch; a dead link follows the browser", async () => {
    const partner = await partnerWithKeys();
    const lead = await createLead(partner.live.key, { country: "BE", business: { name: "Gaufres Bruxelles" } });
    const link = await call("POST", `/partner/v1/leads/${lead.id}/application-link`, { key: partner.live.key, body: {} });
    const french = browser();
    await french.get(pathOf(link.body.url));
    const page = await french.get("/apply/business", { "Accept-Language": "de-DE, fr-BE;q=0.9, nl;q=0.5" });
    expect(page.text).toContain('<html lang="fr-BE">');
    expect(page.text).toContain("Votre entreprise");
    expect(page.text).toContain("Numéro d&#39;entreprise");
    const consent = await french.get("/apply/consent", { "Accept-Language": "fr" });
    expect(consent.text).toContain('lang="fr-FR" id="consent-text"');
    expect(consent.text).toMatch(/<p id="commission-disclosure" lang="fr-FR"><bdi>[^<]+<\/bdi> peut recevoir une commission/);
    const dutch = await french.get("/apply/business");
    expect(dutch.text).toContain('<html lang="nl-BE">');
    expect(dutch.text).toContain("Uw bedrijf");
    expect(dutch.text).toContain("Ondernemingsnummer");
    // A language the market is not offered in keeps the market's own.
    expect((await french.get("/apply", { "Accept-Language": "es" })).text).toContain('<html lang="nl-BE">');
    const dead = await browser().get(`/apply/${"0".repeat(48)}`, { "Accept-Language": "sv-SE" });
    expect(dead.status).toBe(404);
    expect(dead.text).toContain('<html lang="sv-SE">');
    expect(dead.text).toContain("Den här länken fungerar inte");
  });
});

describe("the link's rate limit and its submit mode", () => {
  // Dispatching is global (test/webhooks/support/webhooks.ts): only what this file's tests write is dispatched by them.
  beforeEach(settleOutbox);

  it("answers a request over the per-link limit with the 429 page saying when to retry; another link from the same address is unaffected", async () => {
    const { link } = await leadWithLink();
    const b = browser();
    expect((await b.get(pathOf(link.url))).status).toBe(303); // the opening counts once on the link
    // The link's minute spent but one, through the limiter the pages count on (a request each would take seconds):
    // the window starts at the opening, so what follows lands well inside it.
    const limiter = env.KEY_AUTHORITY.get(env.KEY_AUTHORITY.idFromName(applicationLinkBucket(link.id)));
    for (let i = 2; i < APPLICATION_REQUESTS_PER_LINK; i++) expect((await limiter.hit(APPLICATION_REQUESTS_PER_LINK, APPLICATION_LIMIT_WINDOW_SECONDS)).allowed).toBe(true);
    expect((await b.get("/apply")).status).toBe(200); // the 60th
    const refused = await b.get("/apply/business");
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("Retry-After"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(APPLICATION_LIMIT_WINDOW_SECONDS);
    expect(refused.headers.get("Content-Type")).toContain("text/html");
    expect(refused.headers.get("Content-Security-Policy")).toContain("default-src 'none'");
    expect(refused.text).toContain("Too many requests");
    // When to retry, in words, from the same figure as Retry-After.
    expect(refused.text).toContain(wait < 60 ? `${wait} second${wait === 1 ? "" : "s"}` : "1 minute");
    const posted = await b.post("/apply/contact", { "contact.first_name": "Ada", go: "next" });
    expect(posted.status).toBe(429);
    // Another link, from the same browser and address, has a minute of its own.
    const other = await leadWithLink();
    expect((await b.get(pathOf(other.link.url))).status).toBe(303);
    expect((await b.get("/apply")).status).toBe(200);
    expect((await b.get("/apply/business")).status).toBe(200);
  });

  it('submit "auto": the completed application is submitted at once, routes, and the partner\'s webhooks receive its events', async () => {
    await oneProductPanel();
    const { partner, lead, link } = await leadWithLink({ submit: "auto" });
    const receiver = receiverBucket();
    await register("partner", partner.live.key, { url: receiver.url() });
    const b = browser();
    await b.get(pathOf(link.url));
    await fillEveryStep(b);
    expect((await b.post("/apply/consent", { agree: "yes" })).headers.get("Location")).toBe("/apply/done");
    const done = await b.get("/apply/done");
    expect(done.text).toContain("Your application went to funding providers");
    expect(done.text).not.toContain("Withdraw my consent");

    const read = await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key });
    expect(read.body).toMatchObject({ state: "matched", matched_options: 1, submitted_at: expect.any(String) });
    expect(read.body.consent.receipt).toMatchObject({ channel: "application_link" });
    expect((await call("GET", `/partner/v1/leads/${lead.id}/application-link`, { key: partner.live.key })).body).toMatchObject({ state: "completed", submit: "auto" });
    expect((await eventsOf(lead.id)).map((e) => e.event)).toEqual(["lead.application_opened", "lead.consent_captured", "lead.application_completed", "lead.submitted", "lead.matched"]);
    const { deliveryIds } = await dispatch();
    await consume(deliveryIds);
    const received = (await receiver.records()).map((r) => JSON.parse(r.body) as { event: string; data: { id: string; submit?: string } });
    expect(received.map((r) => r.event).sort()).toEqual(["lead.application_completed", "lead.application_opened", "lead.consent_captured", "lead.matched", "lead.submitted"]);
    expect(received.every((r) => r.data.id === lead.id)).toBe(true);
    expect(received.find((r) => r.event === "lead.application_completed")!.data.submit).toBe("auto");
  });

  it('submit "review": the completed application waits, ready, for the partner\'s submit; nothing routes until then', async () => {
    await oneProductPanel();
    const { partner, lead, link } = await leadWithLink({ submit: "review" });
    const receiver = receiverBucket();
    await register("partner", partner.live.key, { url: receiver.url() });
    const b = browser();
    await b.get(pathOf(link.url));
    await fillEveryStep(b);
    expect((await b.post("/apply/consent", { agree: "yes" })).status).toBe(303);
    expect((await b.get("/apply/done")).text).toContain("checks your answers and sends your application");
    expect((await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key })).body).toMatchObject({ state: "draft", submitted_at: null, matched_options: null });
    const { deliveryIds } = await dispatch();
    await consume(deliveryIds);
    expect((await receiver.records()).map((r) => JSON.parse(r.body).event).sort()).toEqual(["lead.application_completed", "lead.application_opened", "lead.consent_captured"]);
    const submitted = await call("POST", `/partner/v1/leads/${lead.id}/submit`, { key: partner.live.key });
    expect(submitted.body).toMatchObject({ state: "matched", matched_options: 1 });
  });
});

describe("the portal's lead page", () => {
  it("sends the client a link with the API's result, shows it once in the copy control, then only its state", async () => {
    const partner = await partnerWithKeys();
    const session = await signedInMember(partner.organisation.id);
    const lead = await call("POST", "/partner/v1/leads", { key: partner.sandbox.key, host: SANDBOX, body: { country: "GB", business: { name: "Portal Ltd" } } });
    const before = await portal("GET", `/leads/${lead.body.id}`, { session });
    expect(before.text).toContain("Send to the client to fill in");
    const sent = await portal("POST", `/leads/${lead.body.id}/application-link`, { session, form: {} });
    expect(sent.status).toBe(201);
    const url = /value="(http:\/\/sandbox\.localhost:8787\/apply\/[0-9a-z]{48})"/.exec(sent.text)?.[1];
    expect(url).toBeDefined();
    expect(sent.text).toContain('class="copyable copy-secret"');
    const after = await portal("GET", `/leads/${lead.body.id}`, { session });
    expect(after.text).toContain("sent, not opened yet");
    expect(after.text).not.toContain(url!);
    expect((await browser(SANDBOX).get(pathOf(url!))).status).toBe(303);
    expect((await portal("GET", `/leads/${lead.body.id}`, { session })).text).toContain("opened by the client");
    expect((await auditOf(partner.organisation.id)).map((a: { action: string }) => a.action)).toContain("lead.application_link_sent");
  });
});
