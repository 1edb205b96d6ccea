import { env } from "cloudflare:workers";
import { call } from "../helpers/api";
import { partnerWithKeys } from "../helpers/seed";
import { submittedLead, twoLenderPanel } from "../routing/helpers";
import { inData } from "../helpers/data-db";

/** A live UK lead routed to lenders A and B; C's product did not match. */
export async function routedLead(body?: unknown) {
  const panel = await twoLenderPanel();
  const partner = await partnerWithKeys();
  const { lead, submit } = await submittedLead(partner.live.key, body);
  const { results } = await inData.prepare("select ref, lender_organisation_id from deals where lead_id = ?").bind(lead.id).all<any>();
  const refOf = (orgId: string) => results.find((r) => r.lender_organisation_id === orgId)?.ref as string;
  return { ...panel, partner, lead, submit, refA: refOf(panel.a.id), refB: refOf(panel.b.id) };
}

export const firmOffer = (overrides: Record<string, unknown> = {}) => ({
  maturity: "firm",
  amount: 40_000,
  kind: "business_loan",
  annual_rate_pct: 11.5,
  term_months: 24,
  fees: 800,
  total_repayment: 45_900,
  expires_at: new Date(Date.now() + 14 * 86_400_000).toISOString(),
  notes: "Subject to final checks",
  ...overrides,
});

export const indicativeOffer = (overrides: Record<string, unknown> = {}) => firmOffer({ maturity: "indicative", amount: 35_000, notes: undefined, ...overrides });

export async function makeOffer(key: string, ref: string, offer: unknown) {
  const res = await call("POST", `/v1/deals/${ref}/offers`, { key, body: offer });
  if (res.status !== 201) throw new Error(`offer: ${res.status} ${res.text}`);
  return res.body;
}

export const pdfBytes = () => new TextEncoder().encode("%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
