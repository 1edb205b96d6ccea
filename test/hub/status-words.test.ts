/**
 * Issue 23 item 9 in the client hub: a document request's status is shown in words, through the
 * portal's one label map (web/kit/format.ts `LABELS.requestStatus`), on the overview and on the
 * request's page, before and after an upload; so are the lead's state and an upload's type.
 */
import { describe, expect, it } from "vitest";
import { DOCUMENT_REQUEST_STATUSES, LEAD_STATES } from "../../src/domain/reference/values";
import { filesForm, hubCall, hubLead, requestDocuments } from "./helpers";

/** The list's label up to its colon ("Requested: waiting for the client" → "Requested"). */
const labelOf = (list: readonly { value: string; label: string }[], value: string) => list.find((e) => e.value === value)!.label.split(":")[0];
const requestStatusOf = (html: string) => /<strong id="request-status">([^<]*)<\/strong>/.exec(html)?.[1];
const statusCells = (html: string) => [...html.matchAll(/<dt>Status<\/dt><dd>([^<]*)<\/dd>/g)].map((m) => m[1]);

describe("client hub: statuses in words", () => {
  it("shows a document request's status with its label on the overview and its page, never the code", async () => {
    const { hub, lead, refA, a } = await hubLead();
    const request = await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id });

    const overview = await hubCall("GET", hub);
    expect(overview.status).toBe(200);
    expect(statusCells(overview.text)).toEqual([labelOf(DOCUMENT_REQUEST_STATUSES, "requested")]);
    const state = /status <strong>([^<]*)<\/strong>/.exec(overview.text)?.[1];
    expect(LEAD_STATES.map((s) => labelOf(LEAD_STATES, s.value))).toContain(state);

    const before = await hubCall("GET", `${hub}/requests/${request.id}`);
    expect(requestStatusOf(before.text)).toBe(labelOf(DOCUMENT_REQUEST_STATUSES, "requested"));

    const sent = await hubCall("POST", `${hub}/requests/${request.id}`, { multipart: filesForm({ name: "march.pdf", content: "%PDF-1 march" }) });
    expect(sent.status).toBe(303);
    const after = await hubCall("GET", sent.headers.get("Location")!);
    expect(requestStatusOf(after.text)).toBe(labelOf(DOCUMENT_REQUEST_STATUSES, "uploaded"));
    expect(requestStatusOf(after.text)).not.toBe("uploaded");

    const overviewAfter = await hubCall("GET", hub);
    expect(statusCells(overviewAfter.text)).toEqual([labelOf(DOCUMENT_REQUEST_STATUSES, "uploaded")]);
    // The upload's type is its label too ("Bank statements", not "bank statements").
    expect(overviewAfter.text).not.toMatch(/<dt>Type<\/dt><dd>[a-z_ ]+<\/dd>/);
  });
});
