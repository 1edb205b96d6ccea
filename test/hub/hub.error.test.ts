import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, ownAddress, PRODUCTION, throughEdge } from "../helpers/api";
import { pdfBytes } from "../lender/helpers";
import { acceptedHubLead, dealRow, filesForm, hubCall, hubLead, lenderEvents, pagesOf, requestDocuments } from "./helpers";
import { heic } from "../documents/fixtures";

/** The session cookie a browser gets by opening the hub link (the upload form posts to the token-free address with it). */
async function hubSession(link: string) {
  const opened = await exports.default.fetch(new Request(`${PRODUCTION}${link}`, { headers: ownAddress(), redirect: "manual", ...throughEdge(ownAddress()) }));
  await opened.text();
  return /^(rfs_hub=[^;]+)/.exec(opened.headers.get("Set-Cookie") ?? "")![1]!;
}

/** The refusal box of a re-rendered page: its message and the field it names. */
const refusal = (text: string) => {
  const m = text.match(/<p class="error" role="alert" data-field="([^"]*)">(?:<span id="form-error">)?([^<]*)(?:<\/span>)?<\/p>/);
  const unescape = (v: string) => v.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  return m ? { field: m[1], message: unescape(m[2]) } : null;
};

describe("client hub: refused uploads", () => {
  it("refuses an empty file (400) and a post without files (400), naming the field and writing nothing", async () => {
    const { hub, lead, refA, a, keys } = await hubLead();
    const request = await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id });
    const empty = await hubCall("POST", `${hub}/requests/${request.id}`, { multipart: filesForm({ name: "blank.pdf", content: "" }) });
    expect(empty.status).toBe(400);
    expect(refusal(empty.text)).toEqual({ field: "file", message: "The file blank.pdf is empty." });
    const none = await hubCall("POST", `${hub}/requests/${request.id}`, { multipart: new FormData() });
    expect(none.status).toBe(400);
    expect(refusal(none.text)).toEqual({ field: "file", message: "Choose at least one file to upload." });
    const row = await env.DB.prepare("select status, file_count from document_requests where id = ?").bind(request.id).first<any>();
    expect(row).toEqual({ status: "requested", file_count: 0 });
    expect(await lenderEvents(keys.a.live, refA, "request.fulfilled")).toHaveLength(0);
  });

  it("refuses uploads to a forwarded or waived request with a 409 page", async () => {
    const { hub, lead, refA, a, keys } = await hubLead();
    for (const status of ["forwarded", "waived"] as const) {
      const request = await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id }, { status, fileCount: 0 });
      const page = await hubCall("GET", `${hub}/requests/${request.id}`);
      expect(page.text).toContain("This request takes no more files.");
      const res = await hubCall("POST", `${hub}/requests/${request.id}`, { multipart: filesForm({ name: "late.pdf", content: "%PDF-1.4 late" }) });
      expect(res.status).toBe(409);
      expect(refusal(res.text)).toEqual({ field: "file", message: `This request is ${status} and takes no more files.` });
      const { results } = await env.DB.prepare("select id from documents where request_id = ?").bind(request.id).all();
      expect(results).toHaveLength(0);
    }
    // The overview lists open requests only.
    expect((await hubCall("GET", hub)).text).not.toContain("Bank statements (last 6 months)");
    expect(await lenderEvents(keys.a.live, refA, "request.fulfilled")).toHaveLength(0);
  });

  it("answers an unknown request id with the plain 404 page", async () => {
    const { hub } = await hubLead();
    expect((await hubCall("GET", `${hub}/requests/req_nope`)).status).toBe(404);
    expect((await hubCall("GET", `${hub}/deals/DL-NOPE0000/messages`)).status).toBe(404);
  });
});

describe("client hub: refused messages", () => {
  it("needs a body (400) and keeps subject and body within their limits (422)", async () => {
    const { hub, refA, keys } = await hubLead();
    const blank = await hubCall("POST", `${hub}/deals/${refA}/messages`, { form: { subject: "Hi", body: "   " } });
    expect(blank.status).toBe(400);
    expect(refusal(blank.text)).toEqual({ field: "body", message: "Message is required: write something to send." });
    expect(blank.text).toContain('value="Hi"');
    const long = await hubCall("POST", `${hub}/deals/${refA}/messages`, { form: { body: "x".repeat(5001) } });
    expect(long.status).toBe(422);
    expect(refusal(long.text)!.field).toBe("body");
    const subject = await hubCall("POST", `${hub}/deals/${refA}/messages`, { form: { subject: "s".repeat(201), body: "ok" } });
    expect(subject.status).toBe(422);
    expect(refusal(subject.text)).toEqual({ field: "subject", message: "Subject must be at most 200 characters." });
    expect(await lenderEvents(keys.a.live, refA, "message.created")).toHaveLength(0);
  });
});

describe("client hub: refused completion steps", () => {
  it("takes account details only on the accepted deal (409 elsewhere)", async () => {
    const { hub, refB, refA, keys } = await acceptedHubLead();
    const other = await hubCall("POST", `${hub}/deals/${refB}/completion/account`, { form: { account_holder_name: "Widgets Ltd", sort_code: "123456", account_number: "31926819" } });
    expect(other.status).toBe(409);
    expect(refusal(other.text)!.message).toBe("This deal's offer has not been accepted, so it takes no completion steps.");
    expect((await dealRow(refB)).account_submitted_at).toBeNull();
    expect(await lenderEvents(keys.b.live, refB, "deal.account_submitted")).toHaveLength(0);
    expect((await dealRow(refA)).account_submitted_at).toBeNull();
  });

  it("checks the account fields by market: missing is 400, malformed is 422, each naming the field", async () => {
    const { hub, refA } = await acceptedHubLead();
    const post = (form: Record<string, string>) => hubCall("POST", `${hub}/deals/${refA}/completion/account`, { form });
    const cases: [Record<string, string>, number, string][] = [
      [{ sort_code: "123456", account_number: "31926819" }, 400, "account_holder_name"],
      [{ account_holder_name: "Widgets Ltd", account_number: "31926819" }, 400, "sort_code"],
      [{ account_holder_name: "Widgets Ltd", sort_code: "12345", account_number: "31926819" }, 422, "sort_code"],
      [{ account_holder_name: "Widgets Ltd", sort_code: "123456", account_number: "3192681" }, 422, "account_number"],
      [{ account_holder_name: "Widgets Ltd", sort_code: "123456", account_number: "3192681x" }, 422, "account_number"],
    ];
    for (const [form, status, field] of cases) {
      const res = await post(form);
      expect(res.status, JSON.stringify(form)).toBe(status);
      expect(refusal(res.text)!.field).toBe(field);
      // Bank numbers are never echoed back into the page.
      expect(res.text).not.toContain("31926819");
    }
    expect((await dealRow(refA)).account_submitted_at).toBeNull();
  });

  it("takes account details once: a second submission is 409 and fires nothing more", async () => {
    const { hub, refA, keys } = await acceptedHubLead();
    const form = { account_holder_name: "Widgets Ltd", sort_code: "123456", account_number: "31926819" };
    expect((await hubCall("POST", `${hub}/deals/${refA}/completion/account`, { form })).status).toBe(303);
    const again = await hubCall("POST", `${hub}/deals/${refA}/completion/account`, { form: { ...form, account_number: "99999999" } });
    expect(again.status).toBe(409);
    expect(refusal(again.text)!.message).toBe("Account details were already submitted for this deal.");
    expect((await dealRow(refA)).account_summary).toBe("Widgets Ltd ••••6819");
    expect(await lenderEvents(keys.a.live, refA, "deal.account_submitted")).toHaveLength(1);
  });

  it("signs only after account details and the agreement, with consent and a name, once", async () => {
    const { hub, refA, keys } = await acceptedHubLead();
    const sign = (form: Record<string, string>) => hubCall("POST", `${hub}/deals/${refA}/completion/signature`, { form });
    const noAgreement = await sign({ full_name: "Ada Lovelace", consent: "yes" });
    expect(noAgreement.status).toBe(409);
    expect(refusal(noAgreement.text)!.message).toBe("Submit your account details before signing.");
    await hubCall("POST", `${hub}/deals/${refA}/completion/account`, { form: { account_holder_name: "Widgets Ltd", sort_code: "123456", account_number: "31926819" } });
    const stillNoAgreement = await sign({ full_name: "Ada Lovelace", consent: "yes" });
    expect(stillNoAgreement.status).toBe(409);
    expect(refusal(stillNoAgreement.text)!.message).toBe("There is no agreement to sign yet.");
    await call("PUT", `/v1/deals/${refA}/agreement`, { key: keys.a.live, rawBody: pdfBytes(), contentType: "application/pdf" });
    const noConsent = await sign({ full_name: "Ada Lovelace" });
    expect(noConsent.status).toBe(400);
    expect(refusal(noConsent.text)).toEqual({ field: "consent", message: "Tick the consent box to sign the agreement." });
    const noName = await sign({ full_name: " ", consent: "yes" });
    expect(noName.status).toBe(400);
    expect(refusal(noName.text)!.field).toBe("full_name");
    // A GB agreement names its signer by first and last name: one word is not a full name (issue 45 item 11).
    const oneWord = await sign({ full_name: "Ada", consent: "yes" });
    expect(oneWord.status).toBe(422);
    expect(refusal(oneWord.text)).toEqual({ field: "full_name", message: "Type your full name, your first name and your last name, as the agreement names you." });
    expect(await lenderEvents(keys.a.live, refA, "deal.agreement_signed")).toHaveLength(0);
    expect((await sign({ full_name: "Ada Lovelace", consent: "yes" })).status).toBe(303);
    const twice = await sign({ full_name: "Ada Lovelace", consent: "yes" });
    expect(twice.status).toBe(409);
    expect(refusal(twice.text)!.message).toBe("The agreement is already signed.");
    expect(await lenderEvents(keys.a.live, refA, "deal.agreement_signed")).toHaveLength(1);
  });
});

describe("client hub: files are judged as partner uploads are", () => {
  it("refuses a file of a kind the request cannot use (422, naming the file) and writes nothing", async () => {
    const { hub, lead, refA, a, keys } = await hubLead();
    const request = await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    const res = await hubCall("POST", `${hub}/requests/${request.id}`, { multipart: filesForm({ name: "photo.png", content: png, type: "image/png" }) });
    expect(res.status).toBe(422);
    expect(refusal(res.text)).toEqual({ field: "file", message: "The file photo.png cannot be used: the file type is not accepted for this document type." });
    const row = await env.DB.prepare("select status, file_count from document_requests where id = ?").bind(request.id).first<any>();
    expect(row).toEqual({ status: "requested", file_count: 0 });
    expect(await lenderEvents(keys.a.live, refA, "request.fulfilled")).toHaveLength(0);
  });

  it("issue 38 item 4: refuses an iPhone HEIC photo for an ID request (422) saying how to send it instead, and writes nothing", async () => {
    const { hub, lead, refA, a, keys } = await hubLead();
    const request = await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id }, { itemType: "id_document", documentType: "id_document", label: "Photo ID" });
    // Said before the upload too, where the request takes photos.
    const page = await hubCall("GET", `${hub}/requests/${request.id}`);
    expect(page.text).toContain("iPhone photos in HEIC format cannot be used: choose &#39;Most Compatible&#39; in Settings &gt; Camera &gt; Formats, or take a screenshot of the photo and upload that.");
    for (const [name, bytes] of [["IMG_0412.HEIC", heic()], ["passport.heif", heic("mif1")]] as const) {
      const res = await hubCall("POST", `${pagesOf(hub)}/requests/${request.id}`, { multipart: filesForm({ name, content: bytes, type: "image/heic" }), headers: { Cookie: await hubSession(hub) } });
      expect(res.status).toBe(422);
      expect(refusal(res.text)).toEqual({
        field: "file",
        message: `The file ${name} is an iPhone photo in HEIC format, which funding providers cannot open. Send it as a JPEG instead: choose 'Most Compatible' in Settings > Camera > Formats and take the photo again, or take a screenshot of the photo and upload that (a PDF works too).`,
      });
    }
    const row = await env.DB.prepare("select status, file_count from document_requests where id = ?").bind(request.id).first<any>();
    expect(row).toEqual({ status: "requested", file_count: 0 });
    expect(await env.DB.prepare("select count(*) n from documents where request_id = ?").bind(request.id).first<any>()).toEqual({ n: 0 });
    expect(await lenderEvents(keys.a.live, refA, "request.fulfilled")).toHaveLength(0);
  });

  it("parses a CSV bank statement the client uploads, so the lender's deal shows the statement figures", async () => {
    const { hub, lead, refA, a, keys } = await hubLead();
    const request = await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id });
    const csv = ["Date,Description,Amount", "01/04/2026,Card takings,30000.00", "15/04/2026,Rent,-2000.00", "02/05/2026,Card takings,50000.00"].join("\n");
    const res = await hubCall("POST", `${hub}/requests/${request.id}`, { multipart: filesForm({ name: "statement.csv", content: csv, type: "text/csv" }) });
    expect(res.status).toBe(303);
    const deal = await call("GET", `/v1/deals/${refA}`, { key: keys.a.live });
    expect(deal.body.statements).toMatchObject({ has_statements: true, account_kind: "bank" });
    expect(deal.body.market.monthly_revenue).toBe(40000);
    expect(deal.body.market.monthly_revenue_basis).toBe("statements");
    expect(deal.body.documents).toEqual([expect.objectContaining({ source: "client_upload", request_id: request.id, content_type: "text/csv", filename: "statement.csv" })]);
  });
});
