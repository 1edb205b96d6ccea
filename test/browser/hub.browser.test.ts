import { spawnSync } from "node:child_process";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { WRANGLER, wranglerEnv } from "../../scripts/lib/wrangler-child.mjs";
import { baseUrl, http, lane, newPartner } from "../e2e/client";
import { chromiumForFile } from "./browser";
import { askTheBusiness, dealWithOffer, giveTheAccount, replyToTheLender, signTheAgreement, uploadTheAgreement } from "./hub-steps";
import { checkPage, PHONE } from "./page-checks";
import { photoJpeg, scannedPdf } from "./upload-files";

// The business's side: a real browser opens the lead's `upload_url` and uses
// the server-rendered hub (plain forms, no script) end to end.
const browser = chromiumForFile();

/**
 * A lender's document request. Uses `POST /v1/deals/{ref}/requests` once the
 * lender endpoint exists; until then the row is written into the running
 * service's local D1 state.
 */
async function requestDocuments(lenderKey: string, deal: { ref: string; lenderId: string; leadId: string }, itemType = "bank_statements_6m") {
  const viaApi = await http("POST", `${baseUrl()}/v1/deals/${deal.ref}/requests`, { headers: { "X-API-Key": lenderKey }, body: { item_type: itemType } });
  if (itemType !== "bank_statements_6m" && viaApi.status !== 201 && viaApi.status !== 200) throw new Error(`request ${itemType}: ${viaApi.status}`);
  if (viaApi.status === 200 || viaApi.status === 201) return viaApi.body.request.id as string;
  const id = `req_e2e${Date.now().toString(36)}`;
  const sql = `insert into document_requests (id, deal_ref, environment, lender_organisation_id, lead_id, item_type, document_type, label, note, status, requested_via, file_count, requested_at, last_change)
    values ('${id}', '${deal.ref}', 'live', '${deal.lenderId}', '${deal.leadId}', 'bank_statements_6m', 'bank_statements', 'Bank statements (last 6 months)', null, 'requested', 'hub', 0, '${new Date().toISOString()}', 'seed')`;
  const run = spawnSync(WRANGLER, ["d1", "execute", "rfs", "--local", "--persist-to", lane().persistTo, "--command", sql], {
    encoding: "utf8",
    env: wranglerEnv({ logsIn: lane().persistTo }),
  });
  if (run.status !== 0) throw new Error(`seeding the request failed: ${run.stdout}\n${run.stderr}`);
  return id;
}

describe("the client hub in a browser", () => {
  // Seeding through wrangler and four page round trips need room on a loaded machine; not a timing assertion.
  it("lets the business upload against a request, reply to a message, submit its account and sign", { timeout: 120_000 }, async () => {
    const { lender, pkey, lkey, lead, ref } = await dealWithOffer({
      productId: "hub-loan",
      business: { name: "Hub <b>Browser</b> Ltd", company_number: "07654322" },
      contact: { first_name: "Grace", last_name: "Hopper", email: "grace@hub.example" },
    });
    const offerId = (await http("GET", `${baseUrl()}/partner/v1/leads/${lead.body.id}/offers`, { headers: pkey })).body.offers[0].id;
    expect((await http("POST", `${baseUrl()}/partner/v1/leads/${lead.body.id}/offers/${offerId}/acceptance`, { headers: pkey })).status).toBe(200);
    await askTheBusiness(ref, lkey);
    const requestId = await requestDocuments(lender.live.key, { ref, lenderId: lender.org.id, leadId: lead.body.id });
    const uploadUrl: string = (await http("GET", `${baseUrl()}/partner/v1/leads/${lead.body.id}`, { headers: pkey })).body.upload_url;

    const page = await browser().newPage();
    const opened = await page.goto(uploadUrl);
    expect(opened!.status()).toBe(200);
    expect(opened!.headers()["referrer-policy"]).toBe("no-referrer");
    expect(await page.locator("h1").textContent()).toBe("Hub <b>Browser</b> Ltd");

    // 1. Upload against the request.
    await page.click(`a[href$="/requests/${requestId}"]`);
    await page.setInputFiles("input[type=file]", { name: "statements.csv", mimeType: "text/csv", buffer: Buffer.from("date,amount\n2026-10-01,1200\n") });
    await Promise.all([page.waitForURL(/done=uploaded/), page.click("button[type=submit]")]);
    expect(await page.locator("#request-status").textContent()).toBe("Uploaded by the client");
    expect(await page.locator("#request-files").textContent()).toContain("statements.csv");

    // 2. Reply to the lender's message.
    await page.goto(uploadUrl);
    await replyToTheLender(page, ref, "1 High Street, London");

    // 3. Account details, then (once the lender uploads the agreement) the signature.
    await page.goto(`${uploadUrl}/deals/${ref}/completion`);
    await giveTheAccount(page, "Hub Browser Ltd");
    await uploadTheAgreement(ref, lkey, "%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
    await page.reload();
    await signTheAgreement(page, "Grace Hopper");
    await page.close();

    // What the lender sees: every action fired its event.
    const events = await http("GET", `${baseUrl()}/v1/events?subject=${ref}`, { headers: lkey });
    const names = events.body.events.map((e: any) => e.event);
    for (const name of ["request.fulfilled", "message.created", "deal.account_submitted", "deal.agreement_signed"]) expect(names).toContain(name);
    const completion = await http("GET", `${baseUrl()}/v1/deals/${ref}/completion`, { headers: lkey });
    expect(completion.body.completion).toMatchObject({ account_submitted: true, account_summary: "Hub Browser Ltd ••••6819", signed: true, signature_verification: expect.stringMatching(/^typed_name:[0-9a-f]{64}$/) });
  });
});

/** Every hub page at phone width: nothing wider than the screen, no serious or critical axe violation (a screenshot if not). */
const checkPhonePage = (page: Page, name: string) => checkPage(page, name, { folder: "test-artifacts/hub", widths: [PHONE] });

describe("the client hub on a phone (390x844)", () => {
  // Seeding through wrangler, page round trips and axe on each page need room on a loaded machine; not a timing assertion.
  it("shows the offers with their terms and zone, accepts one, and every page fits the screen with no serious axe violation", { timeout: 180_000 }, async () => {
    const { lender, pkey, lkey, lead, ref } = await dealWithOffer({
      productId: "hub-phone-loan",
      business: { name: "Phone Width Trading Company Limited", company_number: "07654323" },
      contact: { first_name: "Ada", last_name: "Lovelace", email: "ada@hub.example" },
    });
    // The structural label the partner reads is the one the business reads.
    const label: string = (await http("GET", `${baseUrl()}/partner/v1/leads/${lead.body.id}/offers`, { headers: pkey })).body.offers[0].label;
    await http("POST", `${baseUrl()}/v1/deals/${ref}/messages`, { headers: lkey, body: { body: "Could you send your latest statements? A_very_long_reference_without_any_spaces_0123456789_0123456789" } });
    const requestId = await requestDocuments(lender.live.key, { ref, lenderId: lender.org.id, leadId: lead.body.id });
    const uploadUrl: string = (await http("GET", `${baseUrl()}/partner/v1/leads/${lead.body.id}`, { headers: pkey })).body.upload_url;

    const context = await browser().newContext({ viewport: PHONE });
    const page = await context.newPage();
    try {
      // The overview: the offer under its label, its terms, its expiry with the zone.
      await page.goto(uploadUrl);
      const offers = page.locator("#offers");
      expect(await offers.locator("h3").textContent()).toBe(label);
      expect(await offers.textContent()).toContain("£40,000");
      expect(await offers.textContent()).toContain("11.5% a year");
      expect(await offers.textContent()).toContain("24 months");
      expect(await page.locator("#offers dt:text-is('Expires') + dd").textContent()).toMatch(/\d{4}, \d{2}:\d{2} (GMT|BST)$/);
      expect(await page.locator("#requests dt:text-is('Requested') + dd").textContent()).toMatch(/ (GMT|BST)$/);
      expect(await page.textContent("body")).not.toContain("UTC");
      await checkPhonePage(page, "overview");

      // The upload page says what it takes, from the upload's own rules.
      await page.click(`a[href$="/requests/${requestId}"]`);
      expect(await page.locator("#upload-rules").textContent()).toBe("Accepted file types: PDF, CSV, OFX bank export. You can send at most 10 files at once, 20 MB in all; files must not be empty.");
      expect(await page.getAttribute("input[type=file]", "accept")).toBe(".pdf,.csv,.ofx");
      await checkPhonePage(page, "request");

      // A refused upload (no file chosen: the browser's own check is bypassed) is a plain message on the page.
      await page.locator("input[type=file]").evaluate((input) => input.removeAttribute("required"));
      await Promise.all([page.waitForLoadState("load"), page.click("button[type=submit]")]);
      expect(await page.locator("p.error").textContent()).toBe("Choose at least one file to upload.");
      await checkPhonePage(page, "request-refused");

      // Issue 38: real files, through the cookie session the link was traded for (the form posts to
      // /hub/{lead}/requests/{id}): a 3 MB phone photo and a 5 MB scanned PDF for an ID request, listed once sent.
      const idRequest = await requestDocuments(lender.live.key, { ref, lenderId: lender.org.id, leadId: lead.body.id }, "id_document");
      await page.goto(uploadUrl);
      await page.click(`a[href$="/requests/${idRequest}"]`);
      expect(new URL(page.url()).pathname).toBe(`/hub/${lead.body.id}/requests/${idRequest}`);
      expect(await page.locator("#upload-rules").textContent()).toContain("iPhone photos in HEIC format cannot be used");
      await page.setInputFiles("input[type=file]", [photoJpeg("passport-photo.jpg", 3), scannedPdf("passport-scan.pdf", 5)]);
      await Promise.all([page.waitForURL(/done=uploaded/), page.click("button[type=submit]")]);
      const sent = await page.locator("#request-files").textContent();
      // Sizes in words, never a count of bytes (issue 45 item 10).
      expect(sent).toContain("passport-photo.jpg (3 MB");
      expect(sent).toContain("passport-scan.pdf (5 MB");
      await checkPhonePage(page, "request-uploaded-large");

      await page.goto(`${uploadUrl}/deals/${ref}/messages`);
      expect(await page.locator("#messages").textContent()).toMatch(/(GMT|BST)/);
      await checkPhonePage(page, "messages");

      // Review the offer, then accept it: the confirmation, then the partner sees it accepted.
      await page.goto(uploadUrl);
      await page.click("text=Review and accept this offer");
      await checkPhonePage(page, "offer");
      await Promise.all([page.waitForURL(/done=accepted/), page.click("button:text-is('Accept this offer')")]);
      expect(await page.locator("p.notice").textContent()).toMatch(/^You accepted the offer. Its funding provider has been told. What happens next: /);
      expect(await page.locator("dd.status").textContent()).toBe("Accepted by you");
      await checkPhonePage(page, "offer-accepted");
      const partnerOffers = await http("GET", `${baseUrl()}/partner/v1/leads/${lead.body.id}/offers`, { headers: pkey });
      expect(partnerOffers.body.offers[0].state).toBe("accepted");
      expect((await http("GET", `${baseUrl()}/partner/v1/leads/${lead.body.id}`, { headers: pkey })).body.state).toBe("offer_accepted");

      await page.click("text=completion page");
      expect(await page.locator("h1").textContent()).toContain(ref);
      await checkPhonePage(page, "completion");

      const missing = await page.goto(`${uploadUrl}/offers/off_not_this_leads`);
      expect(missing!.status()).toBe(404);
      await checkPhonePage(page, "not-found");
    } finally {
      await context.close();
    }

    const events = await http("GET", `${baseUrl()}/v1/events?subject=${ref}`, { headers: lkey });
    expect(events.body.events.map((e: any) => e.event)).toContain("offer.accepted");
  });
});

describe("issue 21 item 6: the hub link in a browser", () => {
  it("trades the token for an HttpOnly SameSite=Strict cookie, lands on the page without the token, and dies on rotation", { timeout: 120_000 }, async () => {
    const partner = await newPartner();
    const pkey = { "X-API-Key": partner.live.key };
    const lead = await http("POST", `${baseUrl()}/partner/v1/leads`, { headers: pkey, body: { country: "GB", business: { name: "Cookie Exchange Ltd" } } });
    expect(lead.status).toBe(201);
    const uploadUrl: string = lead.body.upload_url;
    const token = new URL(uploadUrl).pathname.split("/")[3]!;
    expect(token).toMatch(/^[0-9a-f]{40}$/);

    const context = await browser().newContext();
    const page = await context.newPage();
    const opened = await page.goto(uploadUrl);
    expect(opened!.status()).toBe(200);
    expect(page.url()).toBe(`${baseUrl()}/hub/${lead.body.id}`);
    expect(page.url()).not.toContain(token);
    expect(opened!.request().redirectedFrom()?.url()).toBe(uploadUrl);
    expect(opened!.headers()["referrer-policy"]).toBe("no-referrer");
    expect(await page.locator("h1").textContent()).toBe("Cookie Exchange Ltd");
    const [cookie] = (await context.cookies()).filter((c) => c.name === "rfs_hub");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: `/hub/${lead.body.id}` });
    expect(cookie!.value).not.toContain(token);
    expect(await page.evaluate(() => document.cookie)).not.toContain("rfs_hub");

    // The partner rotates the link: the open page's session dies at once, the new link works.
    const rotated = await http("POST", `${baseUrl()}/partner/v1/leads/${lead.body.id}/hub-link`, { headers: pkey });
    expect(rotated.status).toBe(200);
    expect((await page.reload())!.status()).toBe(404);
    expect((await page.goto(uploadUrl))!.status()).toBe(404);
    expect((await page.goto(rotated.body.upload_url))!.status()).toBe(200);
    expect(page.url()).toBe(`${baseUrl()}/hub/${lead.body.id}`);
    await context.close();
  });
});
