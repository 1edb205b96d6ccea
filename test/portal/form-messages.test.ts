/**
 * Issue 23 item 6: every refusal a portal or hub form shows is in the person's
 * words from the one messages map (src/web/kit/messages.ts). No dotted field
 * path and no zod default message reaches a page; the first refused input is
 * focused and marked; money accepts thousands separators.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { portal, signedInMember } from "../helpers/portal";
import { partnerWithKeys } from "../helpers/seed";
import { hubCall, hubLead } from "../hub/helpers";
import { lenderAtLiveDeal } from "./lender/support";
import { completeUkForm, leadIdsOf, messageBeside, openAndSubmit } from "./partner/helpers";
import { inData } from "../helpers/data-db";

/** Every message a page shows about a refused form: beside a field, above the form, at a form's button. */
function shownMessages(html: string): string[] {
  const found = [...html.matchAll(/<(?:span|p)[^>]*class="(?:field-error|error)"[^>]*>([^<]*)</g)].map((m) => m[1]);
  return found.map((m) => m.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&"));
}

// Zod's own wordings (v4) and the API's developer shapes, none of which a person should read.
const ZOD_DEFAULTS = [/Invalid input/i, /expected \w+, received/i, /Too (small|big)/, /Invalid option/, /Invalid string/, /Invalid (email|url)/i, /Unrecognized key/i];
// A JSON path: a segment with an underscore or one of the request's objects, then a dot (`funding.amount`, `allowed_origins.1`); not `example.com`.
const DOTTED_PATH = /\b(?:[a-z]+_[a-z_]*|business|funding|trading|contact|consent|channel|query|body|persons)\.[a-z_0-9]+/;

function expectPersonWords(html: string) {
  const messages = shownMessages(html);
  expect(messages.length, "the page shows a refusal").toBeGreaterThan(0);
  for (const message of messages) {
    expect(message, message).not.toMatch(DOTTED_PATH);
    for (const pattern of ZOD_DEFAULTS) expect(message, message).not.toMatch(pattern);
  }
}

/** The input the page opens focused on (autofocus), and whether it is marked invalid. */
const focusedInput = (html: string) => html.match(/<(?:input|select|textarea)[^>]*\bautofocus\b[^>]*>/g) ?? [];

describe("form messages: the person's words from one map", () => {
  it("reads 50,000 as an amount on the lead form", async () => {
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const res = await portal("POST", "/leads/new", { session, form: { ...completeUkForm(), "funding.amount": "50,000", "trading.annual_turnover": "1,250,000.50", intent: "save" } });
    expect(res.status, shownMessages(res.text).join(" | ")).toBe(303);
    const [id] = await leadIdsOf(organisation.id);
    const row = await inData.prepare("select funding from leads where id = ?").bind(id).first<{ funding: string }>();
    expect(JSON.parse(row!.funding).amount).toBe(50_000);
  });

  it("words a number that is not one, focuses it and marks it; `5,0` is not fifty", async () => {
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const res = await portal("POST", "/leads/new", { session, form: { ...completeUkForm(), "funding.amount": "5,0", "contact.email": "ada-at-example", intent: "save" } });
    expect(res.status).toBe(400);
    expect(messageBeside(res.text, "funding.amount")).toBe("Enter the amount as a number, for example 50,000 or 50k.");
    expect(messageBeside(res.text, "contact.email")).toBe("Enter the email like name@example.com.");
    expectPersonWords(res.text);
    const focused = focusedInput(res.text);
    expect(focused).toHaveLength(1);
    expect(focused[0]).toContain('name="contact.email"');
    expect(focused[0]).toContain('aria-invalid="true"');
    expect(res.text).toContain("[aria-invalid=true]{border:2px solid");
    // The market is mandatory and says so.
    expect(res.text).toMatch(/<label for="f-country">Market<span class="required-mark"> \(required\)<\/span><\/label>/);
  });

  it("names what a submit needs in words", async () => {
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const { "business.company_number": _, ...form } = completeUkForm();
    // The check page offers no submit while a mandatory answer is missing; a submit posted anyway is refused beside the field.
    const { submitted: res } = await openAndSubmit(session, form);
    expect(res.status).toBe(422);
    expect(messageBeside(res.text, "business.company_number")).toBe("Company number is needed before you can submit.");
    expectPersonWords(res.text);
  });

  it("prequalification: the purpose, the amount and an unknown market", async () => {
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const res = await portal("POST", "/prequalification", { session, form: { country: "Atlantis", "funding.purpose": "", "funding.amount": "" } });
    expect(res.status).toBe(400);
    expect(messageBeside(res.text, "funding.purpose")).toBe("Choose what the funding is for.");
    expectPersonWords(res.text);
    const noAmount = await portal("POST", "/prequalification", { session, form: { country: "GB", "funding.purpose": "working_capital" } });
    expect(messageBeside(noAmount.text, "funding.amount")).toBe("Enter the amount, or choose an amount band.");
    expectPersonWords(noAmount.text);
  });

  it("keys, webhooks and members forms", async () => {
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "admin");
    const key = await portal("POST", "/keys", { session, form: { type: "publishable", allowed_origins: "https://ok.example\nhttps://bad.example/path" } });
    expect(key.status).toBe(400);
    expect(messageBeside(key.text, "allowed_origins")).toBe("Enter each origin like https://www.example.com (no path).");
    expectPersonWords(key.text);
    const hook = await portal("POST", "/webhooks", { session, form: { url: "not a url", payload: "full" } });
    expect(hook.status).toBe(400);
    expectPersonWords(hook.text);
    const invite = await portal("POST", "/members/invitations", { session, form: { email: "nobody", role: "member" } });
    expect(invite.status).toBe(400);
    expect(messageBeside(invite.text, "email")).toBe("Enter the person&#39;s email address, like name@example.com.");
  });

  it("a choice that is not on the list is worded as such, not as a field left out (the form's refusal reads what was posted)", async () => {
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "admin");
    const key = await portal("POST", "/keys", { session, form: { type: "master", allowed_origins: "" } });
    expect(key.status).toBe(400);
    expect(messageBeside(key.text, "type")).toBe("Choose the key type from the list.");
    expectPersonWords(key.text);
    const { session: lender, refA } = await lenderAtLiveDeal();
    const offer = await portal("POST", `/deals/${refA}/offers`, { session: lender, form: { maturity: "binding", amount: "50000", kind: "business_loan", annual_rate_pct: "10", term_months: "12" } });
    expect(offer.status).toBe(400);
    expect(messageBeside(offer.text, "maturity")).toBe("Choose the terms from the list.");
    expectPersonWords(offer.text);
  });

  it("the lender's offer form reads 50,000 and words a bad rate", async () => {
    const { session, refA } = await lenderAtLiveDeal();
    const bad = await portal("POST", `/deals/${refA}/offers`, { session, form: { maturity: "firm", amount: "50,000", kind: "business_loan", annual_rate_pct: "ten", term_months: "12" } });
    expect(bad.status).toBe(400);
    expect(messageBeside(bad.text, "annual_rate_pct")).toBe("Enter the yearly rate as a number, for example 11.5 or 11.5%.");
    expectPersonWords(bad.text);
    expect(focusedInput(bad.text)[0]).toContain('name="annual_rate_pct"');
    const both = await portal("POST", `/deals/${refA}/offers`, { session, form: { maturity: "firm", amount: "50,000", kind: "business_loan", annual_rate_pct: "10", factor_rate: "1.2", term_months: "12" } });
    expect(both.status).toBe(400);
    expect(messageBeside(both.text, "annual_rate_pct")).toBe("Give a yearly rate or a factor rate: one of them, not both.");
    const good = await portal("POST", `/deals/${refA}/offers`, { session, form: { maturity: "firm", amount: "50,000", kind: "business_loan", annual_rate_pct: "10", term_months: "12" } });
    expect(good.status, shownMessages(good.text).join(" | ")).toBe(303);
  });

  it("the hub's refusals are read through the same map and focus their input", async () => {
    const { hub, refA } = await hubLead();
    const blank = await hubCall("POST", `${hub}/deals/${refA}/messages`, { form: { subject: "Hi", body: "   " } });
    expect(blank.status).toBe(400);
    expectPersonWords(blank.text);
    expect(focusedInput(blank.text)[0]).toContain('id="body"');
    expect(focusedInput(blank.text)[0]).toContain('aria-invalid="true"');
  });
});

describe("the one input rule: money, rates, terms as people type them (issue 45 item 7)", () => {
  it("the lead form reads £50k, £1.2m and 3 years", async () => {
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const form = { ...completeUkForm(), "funding.amount": "£50k", "trading.annual_turnover": "£1.2m", "trading.tib_months": "3 years", intent: "save" };
    const res = await portal("POST", "/leads/new", { session, form });
    expect(res.status, shownMessages(res.text).join(" | ")).toBe(303);
    const [id] = await leadIdsOf(organisation.id);
    const row = await inData.prepare("select funding, trading from leads where id = ?").bind(id).first<{ funding: string; trading: string }>();
    expect(JSON.parse(row!.funding).amount).toBe(50_000);
    expect(JSON.parse(row!.trading)).toMatchObject({ annual_turnover: 1_200_000, tib_months: 36 });
  });

  it("the lead form refuses a dollar amount on a pound lead, with the amount's own example", async () => {
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const res = await portal("POST", "/leads/new", { session, form: { ...completeUkForm(), "funding.amount": "$50k", "trading.tib_months": "a while", intent: "save" } });
    expect(res.status).toBe(400);
    expect(messageBeside(res.text, "funding.amount")).toBe("Enter the amount as a number, for example 50,000 or 50k.");
    expect(messageBeside(res.text, "trading.tib_months")).toBe("Enter the months trading as a number, in months, for example 24, or in years, for example 2 years.");
  });

  it("the lender's offer form reads £50k, 11.5% and 2 years, and each field refuses with its own example", async () => {
    const { session, refA } = await lenderAtLiveDeal();
    const badAmount = await portal("POST", `/deals/${refA}/offers`, { session, form: { maturity: "firm", amount: "lots", kind: "business_loan", annual_rate_pct: "10", term_months: "12" } });
    expect(badAmount.status).toBe(400);
    expect(messageBeside(badAmount.text, "amount")).toBe("Enter the amount as a number, for example 50,000 or 50k.");
    const badRate = await portal("POST", `/deals/${refA}/offers`, { session, form: { maturity: "firm", amount: "£50k", kind: "business_loan", annual_rate_pct: "ten", term_months: "12" } });
    expect(messageBeside(badRate.text, "annual_rate_pct")).toBe("Enter the yearly rate as a number, for example 11.5 or 11.5%.");
    const badTerm = await portal("POST", `/deals/${refA}/offers`, { session, form: { maturity: "firm", amount: "£50k", kind: "business_loan", annual_rate_pct: "10", term_months: "soon" } });
    expect(messageBeside(badTerm.text, "term_months")).toBe("Enter the term as a number, in months, for example 24, or in years, for example 2 years.");
    for (const page of [badAmount, badRate, badTerm]) expect(page.text).not.toContain("for example 50000");
    // Each field's hint gives its own example before anything is typed.
    const form = (await portal("GET", `/deals/${refA}`, { session })).text;
    expect(form).toMatch(/Yearly rate \(%\)<\/label><span class="muted"> \(for example 11\.5 or 11\.5%\)<\/span>/);
    expect(form).toMatch(/Term \(months\)<\/label><span class="muted"> \(in months, for example 24, or in years, for example 2 years\)<\/span>/);
    const good = await portal("POST", `/deals/${refA}/offers`, {
      session,
      form: { maturity: "firm", amount: "£50k", kind: "business_loan", annual_rate_pct: "11.5%", term_months: "2 years", fees: "£1k", total_repayment: "£57,500" },
    });
    expect(good.status, shownMessages(good.text).join(" | ")).toBe(303);
    const offer = await env.DB.prepare("select amount, annual_rate_pct, term_months, fees, total_repayment from offers where deal_ref = ? order by created_at desc limit 1").bind(refA).first<any>();
    expect(offer).toMatchObject({ amount: 50_000, annual_rate_pct: 11.5, term_months: 24, fees: 1000, total_repayment: 57_500 });
  });
});
