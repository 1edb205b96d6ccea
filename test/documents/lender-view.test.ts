import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { routedLead } from "../lender/helpers";
import { bytes, csvWithFormula, png, signedAmountCsv } from "./fixtures";
import { uploadDocument } from "./helpers";

/** A signed link as the API hands it out, fetched through the worker. */
async function download(url: string) {
  const { pathname, search } = new URL(url);
  return call("GET", `${pathname}${search}`);
}

describe("partner documents on the lender's deal", () => {
  it("shows the accepted statement with a working signed link and its figure in market.monthly_revenue; a rejected document stays hidden", async () => {
    const routed = await routedLead();
    const key = routed.partner.live.key;
    const statement = await uploadDocument(key, routed.lead.id, "bank_statements", bytes(signedAmountCsv), "apr-may.csv");
    const rejected = await uploadDocument(key, routed.lead.id, "id_document", bytes(signedAmountCsv), "not-an-id.csv");
    expect(rejected.state).toBe("rejected");

    const deal = await call("GET", `/v1/deals/${routed.refA}`, { key: routed.keys.a.live });
    expect(deal.status).toBe(200);
    expect(deal.body.documents).toEqual([
      {
        id: statement.id,
        document_type: "bank_statements",
        filename: "apr-may.csv",
        content_type: "text/csv",
        size_bytes: bytes(signedAmountCsv).length,
        uploaded_at: statement.received_at,
        source: "partner_upload",
        request_id: null,
        formula_cells: false,
        url: expect.stringMatching(/^http:\/\/localhost:8787\/files\/leads\/live\/.+\?expires=\d+&signature=[0-9a-f]{64}$/),
      },
    ]);
    expect(deal.body.statements).toEqual({ has_statements: true, uploaded_at: statement.received_at, account_kind: "bank" });
    expect(deal.body.market).toMatchObject({ monthly_revenue: 2_000, monthly_revenue_basis: "statements" });

    const file = await download(deal.body.documents[0].url);
    expect(file.status).toBe(200);
    expect(file.text).toBe(signedAmountCsv);
    expect(file.headers.get("Content-Type")).toBe("text/csv");

    // Every lender the lead is routed to sees the partner's documents.
    const other = await call("GET", `/v1/deals/${routed.refB}`, { key: routed.keys.b.live });
    expect(other.body.documents.map((d: { id: string }) => d.id)).toEqual([statement.id]);
  });

  it("flags a CSV with formula cells to the partner and to every lender, and still serves its exact bytes", async () => {
    const routed = await routedLead();
    const key = routed.partner.live.key;
    const flagged = await uploadDocument(key, routed.lead.id, "bank_statements", bytes(csvWithFormula), "apr-may.csv");
    const clean = await uploadDocument(key, routed.lead.id, "other", bytes(signedAmountCsv), "clean.csv");
    expect(flagged).toMatchObject({ state: "accepted", formula_cells: true });
    expect(clean).toMatchObject({ state: "accepted", formula_cells: false });
    const own = await call("GET", `/partner/v1/leads/${routed.lead.id}/documents/${flagged.id}`, { key });
    expect(own.body.formula_cells).toBe(true);
    const lead = await call("GET", `/partner/v1/leads/${routed.lead.id}`, { key });
    expect(lead.body.documents.map((d: { formula_cells: boolean }) => d.formula_cells)).toEqual([true, false]);

    for (const [ref, lenderKey] of [[routed.refA, routed.keys.a.live], [routed.refB, routed.keys.b.live]]) {
      const deal = await call("GET", `/v1/deals/${ref}`, { key: lenderKey });
      const byId = Object.fromEntries(deal.body.documents.map((d: { id: string; formula_cells: boolean }) => [d.id, d.formula_cells]));
      expect(byId).toEqual({ [flagged.id]: true, [clean.id]: false });
    }
    const deal = await call("GET", `/v1/deals/${routed.refA}`, { key: routed.keys.a.live });
    const file = await download(deal.body.documents.find((d: { id: string }) => d.id === flagged.id).url);
    expect(file.text).toBe(csvWithFormula);
  });

  it("serves an image upload's exact bytes", async () => {
    const routed = await routedLead();
    const doc = await uploadDocument(routed.partner.live.key, routed.lead.id, "proof_of_address", png(), "bill.png");
    const deal = await call("GET", `/v1/deals/${routed.refA}`, { key: routed.keys.a.live });
    const entry = deal.body.documents.find((d: { id: string }) => d.id === doc.id);
    const { pathname, search } = new URL(entry.url);
    const res = await exports.default.fetch(new Request(`http://api.test${pathname}${search}`));
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(png());
    expect(res.headers.get("Content-Type")).toBe("image/png");
    const row = await env.DB.prepare("select state from documents where id = ?").bind(doc.id).first<{ state: string }>();
    expect(row?.state).toBe("accepted");
  });
});
