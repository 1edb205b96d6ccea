import { env } from "cloudflare:workers";
import { asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/client";
import { findLeadWithRelations } from "../../src/db/leads/with-relations";
import { deals, leadRouting, offers } from "../../src/db/schema/deals";
import { documents } from "../../src/db/schema/documents";
import { hubLinks } from "../../src/db/schema/hub-links";
import { leads } from "../../src/db/schema/leads";
import { registerAnswers } from "../../src/db/schema/registers";
import { companyClaims } from "../../src/db/schema/claims";
import { toOffer } from "../../src/db/offer-rows";
import { toDocument } from "../../src/db/documents/documents";
import { toLead, toRenewalSummary } from "../../src/db/leads/leads";

// The lead read is one batch of six prepared statements (db/leads/with-relations.ts). These tests hold it
// to what drizzle's own unprepared reads of the same rows give, byte for byte: order (same-millisecond ties
// in the order of writing), nulls, booleans, JSON columns, text and every REAL, however odd; and to the
// caller's scope (renewals of another account or environment, a lead read with another scope).

const db = () => database(env.DB);
const uid = () => crypto.randomUUID().slice(0, 12);

/** Reals a text encoding would round (15 digits) or drift on (beyond 1e119, below 1e-82): a read must carry every double as it is. */
const ODD_REALS = [0.1 + 0.2, 1234.5678901234567, 1 / 3, 10 / 7, 0.07, 1.15, 99999.99, 1e12, 5000, 1e-7, 1e300, 1.7976931348623157e308, 1e-300, 5e-324, 2.2250738585072014e-308, 3.054936363499605e-151, 1e100, 1e200, 1e-60, 1e-160, 1e-260, -2.5e250, -1.0000000000000002];

function leadRow(id: string, organisationId: string, environment: "sandbox" | "live", createdAt: string, renewalOf: string | null = null) {
  return {
    id,
    organisationId,
    environment,
    reference: `RF-${id.slice(-10).toUpperCase()}`,
    state: "draft",
    country: "GB",
    business: { name: "Ünïcode “Ltd” \u2028 \\ \"quoted\"", registry: null } as never,
    significantPersons: [],
    timeline: [{ at: createdAt, state: "draft" }] as never,
    renewalOf,
    createdAt,
    updatedAt: createdAt,
  };
}

function offerRow(id: string, leadId: string, createdAt: string, amount: number, extra: Partial<typeof offers.$inferInsert> = {}) {
  return {
    id,
    environment: "live" as const,
    leadId,
    dealRef: null,
    lenderOrganisationId: "org_lender_x",
    label: "Term loan",
    maturity: "indicative" as const,
    kind: "term_loan",
    amount,
    currency: "GBP",
    annualRatePct: null,
    factorRate: 1.15,
    termMonths: 12,
    fees: null,
    totalRepayment: 0.1 + 0.2,
    expiresAt: null,
    notes: "line\nbreak, tab\t, emoji 🎉",
    state: "presented",
    superseded: false,
    simulated: true,
    createdAt,
    ...extra,
  };
}

function documentRow(id: string, leadId: string, organisationId: string, receivedAt: string, statement: unknown) {
  return {
    id,
    environment: "live" as const,
    leadId,
    partnerOrganisationId: organisationId,
    dealRef: null,
    requestId: null,
    source: "partner_upload" as const,
    documentType: "bank_statement",
    filename: `statement “${id}”.csv`,
    contentType: "text/csv",
    byteSize: 2 ** 40 + 7,
    state: "accepted" as const,
    reason: null,
    storageKey: `documents/live/${id}`,
    statement: statement as never,
    receivedAt,
    decidedAt: receivedAt,
  };
}

/** Drizzle's own reads of each list, one at a time, mapped the same way. */
async function readOneByOne(leadId: string, organisationId: string, environment: "sandbox" | "live") {
  const d = db();
  return {
    documents: (await d.select().from(documents).where(eq(documents.leadId, leadId)).orderBy(asc(documents.receivedAt), sql`${documents}.rowid`)).map(toDocument),
    offers: (await d.select().from(offers).where(sql`${offers.leadId} = ${leadId} and ${offers.superseded} = 0`).orderBy(asc(offers.createdAt), sql`rowid`)).map(toOffer),
    renewals: (
      await d
        .select({ id: leads.id, reference: leads.reference, state: leads.state, createdAt: leads.createdAt })
        .from(leads)
        .where(sql`${leads.renewalOf} = ${leadId} and ${leads.organisationId} = ${organisationId} and ${leads.environment} = ${environment}`)
        .orderBy(asc(leads.createdAt), sql`${leads}.rowid`)
    ).map(toRenewalSummary),
    registerAnswers: await d.select().from(registerAnswers).where(eq(registerAnswers.ownerId, leadId)),
    routedOptions: (await d.select().from(deals).where(eq(deals.leadId, leadId)).orderBy(asc(deals.createdAt), sql`rowid`)).map((r) => ({
      ref: r.ref,
      lenderOrganisationId: r.lenderOrganisationId,
      productFamily: r.productFamily,
      lenderStatus: r.lenderStatus,
      status: r.status,
      declineReasons: r.declineReasons ?? [],
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    })),
  };
}

function dealRow(ref: string, leadId: string, createdAt: string, extra: Partial<typeof deals.$inferInsert> = {}) {
  return {
    ref,
    lenderOrganisationId: "org_lender_x",
    environment: "live" as const,
    leadId,
    partnerOrganisationId: "org_partner_x",
    productIds: ["p1"],
    subject: { country: "GB" } as never,
    status: "submitted",
    lenderStatus: "new",
    lastChange: "c",
    createdAt,
    updatedAt: createdAt,
    ...extra,
  };
}

describe("the lead read with its relations", () => {
  it("gives the lead, its routing, hub link and every list exactly as drizzle's own reads of the rows do", async () => {
    const org = `org_one_${uid()}`;
    const leadId = `lead_one_${uid()}`;
    const t = "2026-11-26T12:00:00.000Z";
    const later = "2026-11-26T12:00:01.000Z";
    const d = db();
    await d.insert(leads).values(leadRow(leadId, org, "live", t));
    await d.insert(leadRouting).values({ leadId, partnerOrganisationId: org, environment: "live", reasons: [{ code: "matched", detail: "é \"x\"" }], outcome: "funded", outcomeAt: later, fundedAmount: 0.1 + 0.2, lastChange: "c", createdAt: t });
    await d.insert(hubLinks).values({ leadId, generation: 3, issuedAt: t });
    // Documents: two in the same millisecond (written order), one earlier written later, a parsed statement and none.
    await d.insert(documents).values(documentRow(`doc_b_${uid()}`, leadId, org, later, { rows: [{ amount: 0.1 + 0.2, text: "a\u0000b" }], currency: "GBP" }));
    await d.insert(documents).values(documentRow(`doc_a_${uid()}`, leadId, org, later, null));
    await d.insert(documents).values(documentRow(`doc_c_${uid()}`, leadId, org, t, []));
    // Offers: every odd real in amount and the other real columns, same-millisecond ties, one superseded (not shown).
    for (const [i, amount] of ODD_REALS.entries()) {
      await d.insert(offers).values(offerRow(`off_${String(50 - i).padStart(2, "0")}_${uid()}`, leadId, i % 3 === 0 ? later : t, amount, { annualRatePct: ODD_REALS[(i + 5) % ODD_REALS.length]!, fees: i % 2 ? null : ODD_REALS[(i + 9) % ODD_REALS.length]!, simulated: i % 2 === 0, termMonths: i % 4 ? i : null }));
    }
    await d.insert(offers).values(offerRow(`off_sup_${uid()}`, leadId, t, 1, { superseded: true, supersededAt: later, supersededBy: "firm" }));
    // Renewals: two in the scope (same millisecond), one of the other environment and one of another account (neither shown).
    await d.insert(leads).values(leadRow(`lead_ren_z_${uid()}`, org, "live", later, leadId));
    await d.insert(leads).values(leadRow(`lead_ren_a_${uid()}`, org, "live", later, leadId));
    await d.insert(leads).values(leadRow(`lead_ren_s_${uid()}`, org, "sandbox", later, leadId));
    await d.insert(leads).values(leadRow(`lead_ren_o_${uid()}`, `org_other_${uid()}`, "live", later, leadId));
    // Register answers: both kinds, one answered (JSON), one pending (nulls).
    await d.insert(registerAnswers).values({ ownerId: leadId, kind: "vat", environment: "live", country: "GB", number: "GB123", lookupId: "l1", answer: null, attempts: 2, dueAt: later, requestedAt: t, updatedAt: t });
    await d.insert(registerAnswers).values({ ownerId: leadId, kind: "registry", environment: "live", country: "GB", number: "0123", lookupId: "l2", answer: { status: "active", name: "Ü", score: 0.1 + 0.2 }, checkedAt: later, attempts: 1, requestedAt: t, updatedAt: t });

    // Attribution: the lead's one active claim gives its `since`; a retired one says nothing.
    await d.insert(companyClaims).values({ id: `att_old_${uid()}`, environment: "live", companyKey: `GB:register:${uid()}`, leadId, organisationId: org, since: t, active: false, endedAt: later });
    await d.insert(companyClaims).values({ id: `att_${uid()}`, environment: "live", companyKey: `GB:register:${uid()}`, leadId, organisationId: org, since: later });

    // Deals: two in the same millisecond (written order), one declined with coded reasons, one without a family.
    await d.insert(deals).values(dealRow(`DL-Z${uid()}`, leadId, later, { productFamily: "business_loan", lenderStatus: "declined", status: "declined", declineReasons: [{ code: "other", detail: "é \"x\"\n", shareable: true }] }));
    await d.insert(deals).values(dealRow(`DL-A${uid()}`, leadId, later));
    await d.insert(deals).values(dealRow(`DL-E${uid()}`, leadId, t, { productFamily: "line_of_credit" }));
    const read = await findLeadWithRelations(d, { organisationId: org, environment: "live" }, leadId);
    const lead = toLead((await d.select().from(leads).where(eq(leads.id, leadId)))[0]!);
    const expected = { lead, ...(await readOneByOne(leadId, org, "live")), routing: { reasons: [{ code: "matched", detail: "é \"x\"" }], outcome: "funded", outcomeAt: later, fundedAmount: 0.1 + 0.2 }, hubLinkGeneration: 3, attributionSince: later };

    expect(read).not.toBeNull();
    expect(read!.documents).toHaveLength(3);
    expect(read!.offers).toHaveLength(ODD_REALS.length);
    expect(read!.renewals).toHaveLength(2);
    expect(read!.registerAnswers).toHaveLength(2);
    expect(read!.routedOptions).toHaveLength(3);
    expect(read).toStrictEqual({ ...expected, documents: expected.documents, offers: expected.offers, renewals: expected.renewals, registerAnswers: expected.registerAnswers, routedOptions: expected.routedOptions });
    // Byte for byte, key order included; and every real to the bit (toStrictEqual already uses Object.is).
    const { lead: l, documents: ds, routing, offers: os, renewals, registerAnswers: ras, hubLinkGeneration } = read!;
    expect(JSON.stringify({ lead: l, documents: ds, routing, offers: os, renewals, registerAnswers: ras, hubLinkGeneration })).toBe(
      JSON.stringify({ lead: expected.lead, documents: expected.documents, routing: expected.routing, offers: expected.offers, renewals: expected.renewals, registerAnswers: expected.registerAnswers, hubLinkGeneration: 3 }),
    );
    expect(os.map((o) => o.amount)).toEqual(expect.arrayContaining(ODD_REALS));
  });

  it("gives a bare lead empty lists and no routing, and nothing to another account or environment", async () => {
    const org = `org_one_${uid()}`;
    const leadId = `lead_bare_${uid()}`;
    await db().insert(leads).values(leadRow(leadId, org, "live", "2026-11-26T12:00:00.000Z"));
    const read = await findLeadWithRelations(db(), { organisationId: org, environment: "live" }, leadId);
    expect(read).toMatchObject({ documents: [], routing: null, offers: [], routedOptions: [], renewals: [], registerAnswers: [], hubLinkGeneration: 0 });
    expect(await findLeadWithRelations(db(), { organisationId: org, environment: "sandbox" }, leadId)).toBeNull();
    expect(await findLeadWithRelations(db(), { organisationId: `org_other_${uid()}`, environment: "live" }, leadId)).toBeNull();
  });
});
