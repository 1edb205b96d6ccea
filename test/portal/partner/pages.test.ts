import { describe, expect, it } from "vitest";
import { createLead } from "../../leads/helpers";
import { portal, signedInMember } from "../../helpers/portal";
import { createOrganisation, partnerWithKeys } from "../../helpers/seed";
import { auditOf, switchTo } from "./helpers";
import { call } from "../../helpers/api";
import { firmOffer, makeOffer, routedLead } from "../../lender/helpers";
import { env } from "cloudflare:workers";
import { openSession } from "../../../src/services/portal/sessions";
import { sha256Hex } from "../../../src/lib/crypto";
import { testDeps } from "../../helpers/deps";
import { SESSION_COOKIE } from "../../../src/web/portal/session-cookie";

/** A second sign-in of the same member (another browser, the next morning): a new session as a passkey sign-in opens it. */
async function signInAgain(session: { memberId: string; organisationId: string }) {
  const token = await openSession(testDeps(), { id: session.memberId, organisationId: session.organisationId });
  const sessionId = await sha256Hex(token);
  const row = await env.DB.prepare("select environment from portal_sessions where token_hash = ?").bind(sessionId).first<{ environment: string }>();
  return { ...session, cookie: `${SESSION_COOKIE}=${token}`, sessionId, environment: row!.environment };
}

describe("partner portal pages: overview, list, detail, reach", () => {
  it("counts this month's leads per state in the picked environment only", async () => {
    const { organisation, sandbox, live } = await partnerWithKeys();
    await createLead(sandbox.key);
    await createLead(sandbox.key);
    await createLead(live.key);
    const session = await signedInMember(organisation.id, "member");
    const page = await portal("GET", "/", { session });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<td data-state="draft">2</td>');
    expect(page.text).toContain('<td data-state="all">2</td>');
    await switchTo(session, "live");
    expect((await portal("GET", "/", { session })).text).toContain('<td data-state="all">1</td>');
  });

  it("gives a lender's member 404 on every partner page, and the shared event log", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key);
    const lender = await createOrganisation("lender");
    const session = await signedInMember(lender.id, "admin");
    for (const path of ["/leads", "/leads/new", `/leads/${lead.id}`, `/leads/${lead.id}/edit`, "/prequalification"]) {
      expect((await portal("GET", path, { session })).status, path).toBe(404);
    }
    expect((await portal("POST", "/leads/new", { session, form: { country: "GB" } })).status).toBe(404);
    expect((await portal("POST", "/prequalification", { session, form: { country: "GB" } })).status).toBe(404);
    expect((await portal("GET", "/events", { session })).status).toBe(200);
  });

  it("lists leads newest first with state and market filters and keyset paging", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const ids: string[] = [];
    for (let i = 0; i < 26; i++) ids.push((await createLead(sandbox.key)).id);
    const us = await createLead(sandbox.key, { country: "US", business: { name: "Gadgets Inc" } });
    const session = await signedInMember(organisation.id, "member");

    const first = await portal("GET", "/leads", { session });
    expect(first.status).toBe(200);
    const idsOn = (html: string) => [...html.matchAll(/href="\/portal\/leads\/([0-9a-f-]{36})"/g)].map((m) => m[1]);
    expect(idsOn(first.text)).toHaveLength(25);
    expect(idsOn(first.text)[0]).toBe(us.id);
    const next = first.text.match(/href="(\/portal\/leads\?cursor=[^"]+)"/)![1].replace(/&amp;/g, "&");
    const second = await portal("GET", next.replace("/portal", ""), { session });
    expect(second.status).toBe(200);
    expect(idsOn(second.text)).toHaveLength(2);
    expect(new Set([...idsOn(first.text), ...idsOn(second.text)])).toEqual(new Set([...ids, us.id]));

    const market = await portal("GET", "/leads?market=US", { session });
    expect(idsOn(market.text)).toEqual([us.id]);
    const none = await portal("GET", "/leads?state=funded", { session });
    expect(idsOn(none.text)).toEqual([]);
    const drafts = await portal("GET", "/leads?state=draft&market=GB", { session });
    expect(idsOn(drafts.text)).toHaveLength(25);

    const badState = await portal("GET", "/leads?state=lost", { session });
    expect(badState.status).toBe(400);
    expect(badState.text).toContain('id="state-error"');
    const badCursor = await portal("GET", "/leads?cursor=forged", { session });
    expect(badCursor.status).toBe(400);
    expect(badCursor.text).toContain("is not a cursor this API issued");
  });

  it("shows a lead's detail, answers 404 for another organisation's lead, and shows a live lead seen from the sandbox only after a switch", async () => {
    const { organisation, sandbox, live } = await partnerWithKeys();
    const mine = await createLead(sandbox.key);
    const liveLead = await createLead(live.key);
    const other = await partnerWithKeys();
    const theirs = await createLead(other.sandbox.key);
    const session = await signedInMember(organisation.id, "member");

    const page = await portal("GET", `/leads/${mine.id}`, { session });
    expect(page.status).toBe(200);
    expect(page.text).toContain(mine.reference);
    expect(page.text).toContain("Widgets Ltd");
    expect(page.text).toContain("Applicant&#39;s band");
    expect(page.text).toContain("The lead was created");

    expect((await portal("GET", `/leads/${theirs.id}`, { session })).status).toBe(404);
    expect((await portal("GET", `/leads/${theirs.id}/edit`, { session })).status).toBe(404);
    expect((await portal("POST", `/leads/${theirs.id}/submit`, { session, form: {} })).status).toBe(404);
    // Issue 45 item 3: the member's own live lead is not shown from the sandbox, only the offer to switch.
    const fromSandbox = await portal("GET", `/leads/${liveLead.id}`, { session });
    expect(fromSandbox.text).not.toContain(liveLead.reference);
    expect(fromSandbox.text).toContain("Switch to live and open it");
    expect((await portal("GET", "/leads/not-a-lead", { session })).status).toBe(404);
    await switchTo(session, "live");
    expect((await portal("GET", `/leads/${liveLead.id}`, { session })).status).toBe(200);
    const fromLive = await portal("GET", `/leads/${mine.id}`, { session });
    expect(fromLive.text).not.toContain(mine.reference);
    expect(fromLive.text).toContain("Switch to sandbox and open it");
  });

  it("issue 45 item 3: a sign-in starts in the member's last environment, per member", async () => {
    const { organisation } = await partnerWithKeys();
    const accountant = await signedInMember(organisation.id, "member");
    const colleague = await signedInMember(organisation.id, "member");
    expect((await signInAgain(accountant)).environment).toBe("sandbox");
    await switchTo(accountant, "live");
    const next = await signInAgain(accountant);
    expect(next.environment).toBe("live");
    expect((await portal("GET", "/", { session: next as never })).text).toContain('class="live"');
    // Per member: the colleague's sign-in still starts where the colleague left off.
    expect((await signInAgain(colleague)).environment).toBe("sandbox");
    await switchTo(next as never, "sandbox");
    expect((await signInAgain(accountant)).environment).toBe("sandbox");
  });

  it("issue 45 item 3: a live lead opened in the sandbox offers to switch and open it; another account's stays a plain 404", async () => {
    const { organisation, live } = await partnerWithKeys();
    const lead = await createLead(live.key);
    const session = await signedInMember(organisation.id, "member");
    const here = await portal("GET", `/leads/${lead.id}`, { session });
    expect(here.status).toBe(200);
    expect(here.text).toContain("This lead is in live");
    expect(here.text).toContain("Switch to live and open it");
    // Nothing of the lead before the switch.
    expect(here.text).not.toContain(lead.reference);
    expect(here.text).not.toContain(lead.business?.name ?? "Widgets Ltd");
    const switched = await portal("POST", `/leads/${lead.id}/open-in-other-environment`, { session, form: {} });
    expect(switched.status).toBe(303);
    expect(switched.location).toBe(`/portal/leads/${lead.id}`);
    const opened = await portal("GET", `/leads/${lead.id}`, { session });
    expect(opened.status).toBe(200);
    expect(opened.text).toContain(lead.reference);
    expect((await auditOf(organisation.id)).map((a) => [a.action, a.target])).toEqual([["environment.switched", "live"]]);
    expect((await signInAgain(session)).environment).toBe("live");

    // Another account's lead, live or sandbox: the plain Not found, and no switch through the post either.
    const other = await partnerWithKeys();
    const theirs = await createLead(other.live.key);
    const stranger = await portal("GET", `/leads/${theirs.id}`, { session: await signedInMember(organisation.id, "member") });
    expect(stranger.status).toBe(404);
    expect(stranger.text).not.toContain("Switch to live and open it");
    expect((await portal("POST", `/leads/${theirs.id}/open-in-other-environment`, { session, form: {} })).status).toBe(404);
    expect((await portal("GET", `/leads/${crypto.randomUUID()}`, { session })).status).toBe(404);
  });

  it("issue 45 item 2: the lead page shows what the lender needs and the overview what waits on whom, naming no provider", async () => {
    const { keys, refA, partner, lead, a } = await routedLead();
    const lenderName = (await env.DB.prepare("select name from organisations where id = ?").bind(a.id).first<{ name: string }>())!.name;
    const asked = await call("POST", `/v1/deals/${refA}/requests`, { key: keys.a.live, body: { item_type: "bank_statements_6m", note: `Send them to ${lenderName} underwriting` } });
    expect(asked.status).toBeLessThan(300);
    expect((await call("POST", `/v1/deals/${refA}/messages`, { key: keys.a.live, body: { body: `Hello from ${lenderName}, a quick question` } })).status).toBeLessThan(300);
    await makeOffer(keys.a.live, refA, firmOffer({ notes: `${lenderName} needs a director's guarantee`, expires_at: new Date(Date.now() + 2 * 86_400_000).toISOString() }));
    // The client's link, issued 25 days ago, stops working within the week.
    await env.DB.prepare("insert into hub_links (lead_id, generation, issued_at) values (?, 1, ?) on conflict (lead_id) do update set issued_at = excluded.issued_at")
      .bind(lead.id, new Date(Date.now() - 25 * 86_400_000).toISOString())
      .run();
    const session = await signedInMember(partner.organisation.id, "member");
    await switchTo(session, "live");

    const page = await portal("GET", `/leads/${lead.id}`, { session });
    const needs = page.text.slice(page.text.indexOf('id="lender-needs"'), page.text.indexOf('id="outcomes"') > 0 ? page.text.indexOf('id="outcomes"') : undefined);
    expect(needs).toContain("What the lender needs");
    expect(needs).toMatch(/data-option="Option [12]"/);
    expect(needs).toMatch(/Bank statements/i);
    expect(needs).toContain('data-status="requested"');
    expect(needs).toContain(`href="/portal/leads/${lead.id}?document_type=bank_statements#documents"`);
    expect(needs).toContain("waiting for the client&#39;s reply");
    for (const text of [lenderName, "underwriting", "quick question", "guarantee"]) expect(page.text, text).not.toContain(text);
    // "Upload it for the client" opens the upload form on the requested type.
    const upload = await portal("GET", `/leads/${lead.id}?document_type=bank_statements`, { session });
    expect(upload.text).toMatch(/<option value="bank_statements" selected="">/);

    const overview = await portal("GET", "/", { session });
    const onYou = overview.text.slice(overview.text.indexOf('id="on-you"'), overview.text.indexOf('id="on-client"'));
    expect(onYou).toContain('data-waiting="offers"');
    expect(onYou).toContain(lead.reference);
    expect(onYou).toContain("1 offer to accept or decline");
    expect(onYou).toMatch(/<strong>, the first expires/);
    expect(onYou).toContain('data-waiting="link"');
    const onClient = overview.text.slice(overview.text.indexOf('id="on-client"'));
    expect(onClient).toContain('data-waiting="requests"');
    expect(onClient).toContain("1 document a lender asked for");
    expect(overview.text).not.toContain(lenderName);

    // Another organisation's overview shows none of it.
    const other = await partnerWithKeys();
    const stranger = await signedInMember(other.organisation.id, "member");
    await switchTo(stranger, "live");
    const theirs = await portal("GET", "/", { session: stranger });
    expect(theirs.text).not.toContain(lead.reference);
    expect(theirs.text).toContain("Nothing today.");
  });
});
