/**
 * Issue 23 items 12 and 14: keys, offers and documents are on the one table of
 * records (web/kit/table.tsx): every cell is led by its column's name
 * (`data-label`, the card's line on a phone), buttons sit in the actions cell,
 * and a row no longer in force (a revoked key, superseded terms, a rejected
 * document) says so in words and is drawn muted, with no live-looking button.
 */
import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { portal, signedInMember } from "../helpers/portal";
import { createOrganisation } from "../helpers/seed";
import { firmOffer, indicativeOffer, makeOffer, routedLead } from "../lender/helpers";
import { requestDocuments } from "../hub/helpers";
import { pdf } from "../documents/fixtures";
import { liveSession } from "./lender/support";
import { portalUpload, switchTo } from "./partner/helpers";
import { shownSecret } from "./integration/support";

/** The `<tr>` rows of the table of records the page labels `label`. */
function rowsOf(html: string, label: string): string[] {
  const region = html.match(new RegExp(`<div class="table-wrap" role="region" aria-label="${label}"[^>]*><table class="records">([\\s\\S]*?)</table>`));
  expect(region, `a table of records labelled ${label}`).not.toBeNull();
  const body = region![1].split("<tbody>")[1] ?? "";
  return [...body.matchAll(/<tr\b[\s\S]*?<\/tr>/g)].map((m) => m[0]);
}

/** Every `<td>` of a row carries its column's name, except the actions cell. */
function expectLabelledCells(row: string, labels: string[]) {
  for (const label of labels) expect(row).toContain(`<td data-label="${label}">`);
  for (const td of row.match(/<td\b[^>]*>/g) ?? []) expect(td, td).toMatch(/data-label="[^"]+"|class="actions"/);
}

const TIME = /\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} (UTC|GMT|BST)/;

describe("tables of records: keys, offers, documents", () => {
  it("keys: a revoked key is inactive in words and muted, with no button; a live key keeps its Revoke in the actions cell", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);
    const clientIdOf = (key: string) => key.slice(0, key.lastIndexOf("_"));
    const kept = clientIdOf(shownSecret((await portal("POST", "/keys", { session, form: { type: "secret" } })).text)!);
    const gone = clientIdOf(shownSecret((await portal("POST", "/keys", { session, form: { type: "secret" } })).text)!);
    expect((await portal("POST", `/keys/${gone}/revoke`, { session, form: { confirmed: "yes" } })).status).toBe(303);

    const page = await portal("GET", "/keys", { session });
    const rows = rowsOf(page.text, "API keys");
    expect(rows).toHaveLength(2);
    const live = rows.find((r) => r.includes(kept))!;
    const revoked = rows.find((r) => r.includes(gone))!;
    expectLabelledCells(live, ["Kind", "Created", "State"]);
    expect(live).toMatch(/^<tr>/);
    // Revoking asks first: the cell holds the link to the question, not a form that revokes.
    expect(live).toMatch(/<td class="actions"><a class="button danger" href="\/portal\/keys\/[^"]+\/revoke" aria-describedby="key-[^"]+">Revoke<\/a>/);
    expect(live).toContain(`<td data-label="State">Active</td>`);
    expect(live).toMatch(new RegExp(`<td data-label="Created"><time datetime="[^"]+">${TIME.source}</time>`));

    expect(revoked).toMatch(/^<tr class="inactive">/);
    expect(revoked).toMatch(new RegExp(`<span class="inactive-mark">Revoked on ${TIME.source}</span>`));
    expect(revoked).not.toContain("<button");
    expect(revoked).not.toContain("<form");
    expect(revoked).not.toContain("/revoke");
    expect(revoked).toContain("Inactive: calls with it are refused");
    // No raw ISO timestamp reaches the text of the page (only `datetime` attributes carry one).
    expect(page.text.replace(/datetime="[^"]*"/g, "")).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
  });

  it("the lender's deal page: offers (superseded terms muted), documents and requests as tables of records", async () => {
    const { keys, refA, lead, partner, a } = await routedLead();
    await makeOffer(keys.a.live, refA, indicativeOffer());
    const firm = await makeOffer(keys.a.live, refA, firmOffer({ fees: 1_250.5 }));
    await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id });
    const partnerSession = await signedInMember(partner.organisation.id, "member");
    await switchTo(partnerSession, "live");
    expect((await portalUpload(`/leads/${lead.id}/documents`, partnerSession, { document_type: "other" }, { bytes: pdf(), name: "deck.pdf" })).status).toBe(303);

    const page = await portal("GET", `/deals/${refA}`, { session: await liveSession(a.id) });
    expect(page.status).toBe(200);
    const offers = rowsOf(page.text, "Offers");
    expect(offers).toHaveLength(2);
    const current = offers.find((r) => r.includes(`data-offer="${firm.id}"`))!;
    const old = offers.find((r) => !r.includes(`data-offer="${firm.id}"`))!;
    expectLabelledCells(current, ["Amount", "Product", "Rate", "Fees", "Total to repay", "Term", "Expires", "Your notes", "Made"]);
    expect(current).toContain('<td data-label="Fees">£1,250.50</td>');
    expect(current).not.toContain("inactive");
    expect(old).toMatch(/^<tr class="inactive" data-offer="[^"]+">/);
    expect(old).toContain('<span class="inactive-mark">Superseded by firm terms</span>');

    const documents = rowsOf(page.text, "Documents");
    expect(documents).toHaveLength(1);
    expect(documents[0]).toMatch(/<th scope="row"><a href="[^"]+" data-document="[^"]+"><bdi>deck\.pdf<\/bdi><\/a><\/th>/);
    expectLabelledCells(documents[0], ["Type", "From", "Uploaded"]);
    expect(documents[0]).toMatch(new RegExp(`<td data-label="Uploaded">${TIME.source}</td>`));

    const requests = rowsOf(page.text, "Document requests");
    expect(requests).toHaveLength(1);
    expectLabelledCells(requests[0], ["State", "Asked on", "Files"]);
    expect(requests[0]).toMatch(/<td class="actions"><form method="get" action="\/portal\/deals\/[^"]+\/requests\/[^"]+\/waive">/);
  });

  it("the partner's lead page: offers and documents as tables of records, the accept link in the actions cell", async () => {
    const { keys, refA, lead, partner } = await routedLead();
    const offer = await makeOffer(keys.a.live, refA, firmOffer());
    const session = await signedInMember(partner.organisation.id, "member");
    await switchTo(session, "live");
    expect((await portalUpload(`/leads/${lead.id}/documents`, session, { document_type: "other" }, { bytes: pdf(), name: "deck.pdf" })).status).toBe(303);
    const viaApi = await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key });
    const partnerOffer = viaApi.body.offers.find((o: { id: string }) => o.id) as { id: string };

    const page = await portal("GET", `/leads/${lead.id}`, { session });
    const offers = rowsOf(page.text, "Offers");
    expect(offers.length).toBeGreaterThan(0);
    const row = offers.find((r) => r.includes(`data-offer="${partnerOffer.id}"`))!;
    expectLabelledCells(row, ["Amount", "Terms", "Cost", "Fees", "Total to repay", "Term", "Expires", "State"]);
    expect(row).toMatch(/<td class="actions"><a class="button" href="\/portal\/leads\/[^"]+\/offers\/[^"]+\/accept">/);
    expect(offer.id).toBeTruthy();

    const documents = rowsOf(page.text, "Documents");
    expect(documents).toHaveLength(1);
    expectLabelledCells(documents[0], ["Type", "State", "Received"]);
    expect(documents[0]).toContain('<th scope="row"><bdi>deck.pdf</bdi></th>');
  });
});
