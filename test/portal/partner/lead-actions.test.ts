import { describe, expect, it } from "vitest";
import { call } from "../../helpers/api";
import { portal, signedInMember } from "../../helpers/portal";
import { lenderWithKeys, partnerWithKeys } from "../../helpers/seed";
import { completeUkLead, createLead, person } from "../../leads/helpers";
import { submittedLead, twoLenderPanel } from "../../routing/helpers";
import { bytes, csvWithFormula, ofxV1Bank, pdf, png } from "../../documents/fixtures";
import { uploadDocument } from "../../documents/helpers";
import { auditOf, eventNamesOf, leadIdsOf, portalUpload, switchTo } from "./helpers";

const leadOf = async (key: string, id: string) => (await call("GET", `/partner/v1/leads/${id}`, { key })).body;

describe("partner portal: documents, simulate, renewal and the prequalification carried over", () => {
  it("uploads a bank statement with its type through the API's upload and shows the figure with its basis", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const body = completeUkLead();
    const lead = await createLead(sandbox.key, { ...body, trading: { ...body.trading, monthly_revenue: 41_000 } });

    const before = await portal("GET", `/leads/${lead.id}`, { session });
    expect(before.text).toContain("No bank statement has been read yet.");
    expect(before.text).toContain('enctype="multipart/form-data"');

    const res = await portalUpload(`/leads/${lead.id}/documents`, session, { document_type: "bank_statements" }, { bytes: bytes(ofxV1Bank), name: "q1.ofx" });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/portal/leads/${lead.id}`);
    expect(res.query).toBe("?done=document_accepted");
    const viaApi = await leadOf(sandbox.key, lead.id);
    expect(viaApi.documents).toMatchObject([{ filename: "q1.ofx", document_type: "bank_statements", state: "accepted" }]);
    expect(viaApi.trading).toMatchObject({ monthly_revenue: 3_000, monthly_revenue_basis: "statements" });
    expect(await eventNamesOf(lead.id)).toEqual(["document.accepted"]);

    const page = await portal("GET", `/leads/${lead.id}?done=document_accepted`, { session });
    expect(page.text).toContain("The document was uploaded and accepted.");
    expect(page.text).toMatch(/Monthly revenue from the bank statement: <strong>£3,000(\.00)? \(from the bank statements\)<\/strong>/);
    expect(page.text).toContain('<th scope="row"><bdi>q1.ofx</bdi></th><td data-label="Type">Bank statements</td><td data-label="State">Accepted</td>');
    expect((await auditOf(organisation.id)).map((a) => [a.action, a.target])).toEqual([["document.uploaded", viaApi.documents[0].id]]);
    expect(page.text).not.toContain("data-formula-cells");

    // A CSV with formula cells is marked beside its name, so the partner knows before opening it.
    await uploadDocument(sandbox.key, lead.id, "bank_statements", bytes(csvWithFormula), "export.csv");
    const flagged = await portal("GET", `/leads/${lead.id}`, { session });
    expect(flagged.text).toMatch(/<th scope="row"><bdi>export\.csv<\/bdi><span class="file-warning" data-formula-cells="true">Contains formula cells/);
  });

  it("refuses an upload without a file or type beside the field, and a disguised executable, storing nothing", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const lead = await createLead(sandbox.key);
    const noFile = await portalUpload(`/leads/${lead.id}/documents`, session, { document_type: "bank_statements" });
    expect(noFile.status).toBe(400);
    expect(noFile.text).toMatch(/id="file-error"[^>]*>Choose a file to upload\.</);
    const noType = await portalUpload(`/leads/${lead.id}/documents`, session, { document_type: "" }, { bytes: pdf(), name: "a.pdf" });
    expect(noType.status).toBe(400);
    const exe = await portalUpload(`/leads/${lead.id}/documents`, session, { document_type: "other" }, { bytes: new Uint8Array([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0]), name: "statement.pdf" });
    expect(exe.status).toBe(400);
    expect(exe.text).toMatch(/id="file-error"/);
    expect((await leadOf(sandbox.key, lead.id)).documents).toEqual([]);
    expect(await auditOf(organisation.id)).toEqual([]);
  });

  it("removes a rejected document through its confirm page: the API's service, audited, the row, file and list entry gone; an accepted one has no Remove", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const lead = await createLead(sandbox.key);
    const accepted = await uploadDocument(sandbox.key, lead.id, "invoice", pdf(), "invoice.pdf");
    const rejected = await uploadDocument(sandbox.key, lead.id, "bank_statements", png(), "photo.png");
    const confirmPath = `/leads/${lead.id}/documents/${rejected.id}/remove`;

    const page = await portal("GET", `/leads/${lead.id}`, { session });
    expect(page.text).toContain(`href="/portal${confirmPath}"`);
    expect(page.text).toContain(">Remove photo.png</a>");
    expect(page.text).not.toContain(`/documents/${accepted.id}/remove`);

    const question = await portal("GET", confirmPath, { session });
    expect(question.status).toBe(200);
    expect(question.text).toContain("Remove the rejected document photo.png?");
    expect(question.text).toContain("The file type is not accepted for this document type");
    expect(question.text).toContain(`action="/portal${confirmPath}"`);
    // Posted without the confirm page's field (a stale page, a script): the question, nothing removed.
    const unconfirmed = await portal("POST", confirmPath, { session, form: {} });
    expect([unconfirmed.status, unconfirmed.location]).toEqual([303, `/portal${confirmPath}`]);
    expect((await leadOf(sandbox.key, lead.id)).documents).toHaveLength(2);

    const done = await portal("POST", confirmPath, { session, form: { confirmed: "yes" } });
    expect([done.status, done.location]).toEqual([303, `/portal/leads/${lead.id}`]);
    expect(done.headers.get("Location")).toContain("?done=document_removed#documents");
    expect((await leadOf(sandbox.key, lead.id)).documents).toEqual([accepted]);
    expect(await eventNamesOf(lead.id)).toEqual(["document.accepted", "document.rejected", "document.removed"]);
    expect((await auditOf(organisation.id)).map((a) => [a.action, a.target, a.member_id])).toEqual([["document.removed", rejected.id, session.memberId]]);
    expect((await portal("GET", `/leads/${lead.id}?done=document_removed`, { session })).text).toContain("The rejected document was removed from the lead.");

    // Gone: the question and the post are the 404 page; an accepted document's question goes back to the list.
    expect((await portal("GET", confirmPath, { session })).status).toBe(404);
    expect((await portal("POST", confirmPath, { session, form: { confirmed: "yes" } })).status).toBe(404);
    const acceptedQuestion = await portal("GET", `/leads/${lead.id}/documents/${accepted.id}/remove`, { session });
    expect([acceptedQuestion.status, acceptedQuestion.location]).toEqual([303, `/portal/leads/${lead.id}`]);
    // Posted anyway (a forged form): the lead page again with the refusal in words, nothing removed.
    const forced = await portal("POST", `/leads/${lead.id}/documents/${accepted.id}/remove`, { session, form: { confirmed: "yes" } });
    expect(forced.status).toBe(409);
    expect(forced.text).toContain("Only a rejected document can be removed.");
    expect((await leadOf(sandbox.key, lead.id)).documents).toEqual([accepted]);

    // Another partner's member: the 404 page, for the question and the post alike.
    const stranger = await partnerWithKeys();
    const strangerSession = await signedInMember(stranger.organisation.id, "admin");
    const other = await uploadDocument(sandbox.key, lead.id, "invoice", new Uint8Array(), "blank-2.pdf");
    expect((await portal("GET", `/leads/${lead.id}/documents/${other.id}/remove`, { session: strangerSession })).status).toBe(404);
    expect((await portal("POST", `/leads/${lead.id}/documents/${other.id}/remove`, { session: strangerSession, form: { confirmed: "yes" } })).status).toBe(404);
    expect((await leadOf(sandbox.key, lead.id)).documents).toHaveLength(2);
  });

  it("walks a sandbox lead with the simulate buttons to funded, then opens a renewal from it", async () => {
    await twoLenderPanel();
    const { organisation, sandbox } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const { lead } = await submittedLead(sandbox.key, { ...completeUkLead(), significant_persons: [person()] });
    const page = await portal("GET", `/leads/${lead.id}`, { session });
    expect(page.text).toContain("Simulate new offers");
    expect(page.text).toContain("Simulate a decline");
    expect(page.text).not.toContain("Simulate funding");

    const offersBefore = (await call("GET", `/partner/v1/leads/${lead.id}/offers`, { key: sandbox.key })).body.offers;
    const fresh = await portal("POST", `/leads/${lead.id}/simulate`, { session, form: { event: "offers" } });
    expect(fresh.status).toBe(303);
    const offers = (await call("GET", `/partner/v1/leads/${lead.id}/offers`, { key: sandbox.key })).body.offers.filter((o: { state: string }) => o.state === "presented");
    expect(offers.map((o: { id: string }) => o.id)).not.toEqual(offersBefore.map((o: { id: string }) => o.id));

    const tooEarly = await portal("POST", `/leads/${lead.id}/simulate`, { session, form: { event: "fund" } });
    expect(tooEarly.status).toBe(409);
    expect(tooEarly.text).toContain("Simulate funding is not possible while the lead is");
    expect(tooEarly.text).not.toContain("&quot;fund&quot;");
    expect(tooEarly.text).not.toContain("offers_available lead");

    expect((await portal("POST", `/leads/${lead.id}/offers/${offers[0].id}/accept`, { session, form: {} })).status).toBe(303);
    expect((await portal("GET", `/leads/${lead.id}`, { session })).text).toContain("Simulate funding");
    const funded = await portal("POST", `/leads/${lead.id}/simulate`, { session, form: { event: "fund" } });
    expect(funded.status).toBe(303);
    expect((await leadOf(sandbox.key, lead.id)).state).toBe("funded");
    expect(await eventNamesOf(lead.id)).toContain("lead.funded");

    const fundedPage = await portal("GET", `/leads/${lead.id}`, { session });
    expect(fundedPage.text).toContain("Open a renewal");
    expect(fundedPage.text).not.toContain("Simulate");
    const renewed = await portal("POST", `/leads/${lead.id}/renewals`, { session, form: {} });
    expect(renewed.status).toBe(303);
    const renewalId = renewed.location!.split("/").at(-1)!;
    expect(renewalId).not.toBe(lead.id);
    const renewal = await leadOf(sandbox.key, renewalId);
    expect(renewal).toMatchObject({ state: "draft", renewal_of: lead.id, business: { name: "Widgets Ltd" } });
    const renewalPage = await portal("GET", `/leads/${renewalId}`, { session });
    expect(renewalPage.text).toContain("This lead renews");
    expect((await auditOf(organisation.id)).map((a) => a.action)).toEqual(["lead.simulated_offers", "offer.accepted", "lead.simulated_fund", "lead.renewed"]);
  });

  it("declines a sandbox offer for the client through the API's declineOffer: audited, the offer declined, and every offer declined said on the page", async () => {
    await twoLenderPanel();
    const { organisation, sandbox } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const { lead } = await submittedLead(sandbox.key, { ...completeUkLead(), significant_persons: [person()] });
    const offers = (await call("GET", `/partner/v1/leads/${lead.id}/offers`, { key: sandbox.key })).body.offers;
    expect(offers.length).toBeGreaterThan(0);
    const page = await portal("GET", `/leads/${lead.id}`, { session });
    expect(page.text).toContain("Decline an offer for the client");
    const unknown = await portal("POST", `/leads/${lead.id}/offers/decline`, { session, form: { offer_id: offers[0].id, reason_code: "too_dear" } });
    expect(unknown.status).toBe(422);
    for (const offer of offers) {
      const res = await portal("POST", `/leads/${lead.id}/offers/decline`, { session, form: { offer_id: offer.id, reason_code: "found_elsewhere" } });
      expect(res.status).toBe(303);
    }
    const after = await portal("GET", `/leads/${lead.id}`, { session });
    expect(after.text).toContain("data-all-offers-declined");
    expect(after.text).toContain("Declined: Found funding elsewhere");
    expect(after.text).not.toContain("Decline an offer for the client");
    expect((await auditOf(organisation.id)).filter((a: any) => a.action === "offer.declined")).toHaveLength(offers.length);
    expect((await portal("POST", `/leads/${lead.id}/offers/${offers[0].id}/accept`, { session, form: {} })).status).toBe(409);
  });

  it("refuses a renewal of an unfunded lead, simulate in live, and every action on another partner's lead (404)", async () => {
    await twoLenderPanel();
    const mine = await partnerWithKeys();
    const theirs = await partnerWithKeys();
    const session = await signedInMember(mine.organisation.id, "admin");
    const own = await createLead(mine.sandbox.key);
    const early = await portal("POST", `/leads/${own.id}/renewals`, { session, form: {} });
    expect(early.status).toBe(409);
    expect(early.text).toContain("renewed");

    const { lead } = await submittedLead(theirs.sandbox.key);
    for (const [path, form] of [
      [`/leads/${lead.id}/simulate`, { event: "decline" }],
      [`/leads/${lead.id}/renewals`, {}],
    ] as const) {
      expect((await portal("POST", path, { session, form })).status).toBe(404);
    }
    expect((await portalUpload(`/leads/${lead.id}/documents`, session, { document_type: "other" }, { bytes: pdf(), name: "a.pdf" })).status).toBe(404);
    expect((await leadOf(theirs.sandbox.key, lead.id)).state).toBe("offers_available");
    expect((await leadOf(theirs.sandbox.key, lead.id)).documents).toEqual([]);

    const lender = await signedInMember((await lenderWithKeys()).organisation.id, "admin");
    expect((await portal("POST", `/leads/${own.id}/simulate`, { session: lender, form: { event: "decline" } })).status).toBe(404);

    // Live: the sandbox helpers do not act, and no button is shown.
    const live = await createLead(mine.live.key);
    await switchTo(session, "live");
    expect((await portal("GET", `/leads/${live.id}`, { session })).text).not.toContain("Sandbox: simulate");
    const refused = await portal("POST", `/leads/${live.id}/simulate`, { session, form: { event: "decline" } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect((await leadOf(mine.live.key, live.id)).state).toBe("draft");
  });

  it("opens a lead from a prequalification with its answers carried over", async () => {
    await twoLenderPanel();
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const answers = { country: "GB", "business.industry": "ecommerce", "funding.purpose": "working_capital", "funding.amount": "40,000", "trading.monthly_revenue_band": "25k_50k", "trading.tib_months": "30" };
    const checked = await portal("POST", "/prequalification", { session, form: answers });
    expect(checked.status).toBe(200);
    expect(checked.text).toContain(">Open a lead from this prequalification</button>");
    expect(checked.text).toContain('<input type="hidden" name="funding.amount" value="40,000"');
    expect(await leadIdsOf(organisation.id)).toEqual([]);

    const query = new URLSearchParams(answers).toString();
    const form = await portal("GET", `/leads/new?${query}`, { session });
    expect(form.status).toBe(200);
    expect(form.text).toContain("Filled in with the prequalification's answers".replace("'", "&#39;"));
    expect(form.text).toContain('value="40,000"');
    expect(form.text).toContain('value="30"');
    expect(form.text).toMatch(/<option value="working_capital" selected/);
    expect(form.text).toMatch(/<option value="25k_50k" selected/);

    const opened = await portal("POST", "/leads/new", { session, form: { ...answers, "business.name": "Widgets Ltd", intent: "save" } });
    expect(opened.status).toBe(303);
    expect(await leadIdsOf(organisation.id)).toHaveLength(1);
  });
});
