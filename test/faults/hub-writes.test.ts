/**
 * The client hub's writes under the same D1 fault sweep as the APIs (sweep.ts):
 * the business's reply (`message.created`) and its upload against a lender's
 * request (documents, the request's move and `request.fulfilled`; the bytes'
 * pending markers are the one thing a failed batch leaves, for the sweeper).
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { call } from "../helpers/api";
import { callWithEnv } from "../helpers/faults";
import { partnerWithKeys } from "../helpers/seed";
import { filesForm, OUR_ORIGIN, requestDocuments } from "../hub/helpers";
import { submittedLead, twoLenderPanel } from "../routing/helpers";
import { sweepD1Faults } from "./sweep";

const browser = { Origin: OUR_ORIGIN, "Sec-Fetch-Site": "same-origin" };

/** A live lead routed to lender A of a panel made once per test, and its hub path. */
async function hubLeads() {
  const panel = await twoLenderPanel();
  return async () => {
    const partner = await partnerWithKeys();
    const { lead } = await submittedLead(partner.live.key);
    const refA = (await env.DB.prepare("select ref from deals where lead_id = ? and lender_organisation_id = ?").bind(lead.id, panel.a.id).first<{ ref: string }>())!.ref;
    const read = await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key });
    return { lead, refA, lenderId: panel.a.id, hub: new URL(read.body.upload_url).pathname };
  };
}

beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation(() => {});
});

describe("a D1 failure in the middle of a client hub write", () => {
  it("the business's reply to the lender: all or nothing", async () => {
    const outcomes = await sweepD1Faults({
      setup: await hubLeads(),
      write: (faulty, h) =>
        callWithEnv(faulty, "POST", `${h.hub}/deals/${h.refA}/messages`, {
          headers: browser,
          rawBody: new URLSearchParams({ subject: "Address", body: "Yes: 1 High Street, London." }).toString(),
          contentType: "application/x-www-form-urlencoded",
        }),
      status: 303,
      events: ["message.created"],
      page: true,
    });
    expect(outcomes.some((o) => o.operation === "batch" && o.left === "none")).toBe(true);
  });

  it("an upload against a request: all or nothing, but for the markers of the stored bytes", async () => {
    const leads = await hubLeads();
    const outcomes = await sweepD1Faults({
      setup: async () => {
        const h = await leads();
        return { ...h, request: await requestDocuments({ ref: h.refA, lenderOrganisationId: h.lenderId, leadId: h.lead.id }) };
      },
      write: (faulty, h) =>
        callWithEnv(faulty, "POST", `${h.hub}/requests/${h.request.id}`, {
          headers: browser,
          form: filesForm({ name: "jan.pdf", content: "%PDF-1 jan" }, { name: "feb.pdf", content: "%PDF-1 february" }),
        }),
      status: 303,
      events: ["request.fulfilled"],
      page: true,
      leftovers: { pending_uploads: 2 },
    });
    expect(outcomes.some((o) => o.operation === "batch" && o.left === "none")).toBe(true);
  });
});
