/**
 * The rows a submit writes besides the lead itself: the routing record, one
 * deal per matched lender (live) or the simulated offers (sandbox). Every
 * statement is guarded on the submission token, so only the submit that won
 * the lead's conditional update writes them.
 */
import { sql } from "drizzle-orm";
import type { Database } from "./client";
import { insertWhere } from "./guarded";
import { deals, leadRouting, offers, type DealSubject } from "./schema/deals";
import { leads } from "./schema/leads";

export const submissionWon = (leadId: string, token: string) =>
  sql`exists (select 1 from ${leads} where ${leads.id} = ${leadId} and ${leads.submissionToken} = ${token})`;

export interface RoutingRecord {
  leadId: string;
  partnerOrganisationId: string;
  environment: "sandbox" | "live";
  reasons: { code: string; detail: string }[];
  offersPresentedAt: string | null;
  token: string;
  at: string;
}

export const routingInsert = (db: Database, r: RoutingRecord) =>
  insertWhere(
    db,
    leadRouting,
    {
      leadId: r.leadId,
      partnerOrganisationId: r.partnerOrganisationId,
      environment: r.environment,
      reasons: r.reasons,
      offersPresentedAt: r.offersPresentedAt,
      lastChange: r.token,
      createdAt: r.at,
    },
    submissionWon(r.leadId, r.token),
  );

export interface NewDeal {
  ref: string;
  lenderOrganisationId: string;
  environment: "sandbox" | "live";
  leadId: string | null;
  partnerOrganisationId: string | null;
  test: boolean;
  productIds: string[];
  subject: DealSubject;
  at: string;
  token: string;
}

export const dealRow = (d: NewDeal): typeof deals.$inferInsert => ({
  ref: d.ref,
  lenderOrganisationId: d.lenderOrganisationId,
  environment: d.environment,
  leadId: d.leadId,
  partnerOrganisationId: d.partnerOrganisationId,
  test: d.test,
  productIds: d.productIds,
  subject: d.subject,
  status: "submitted",
  lenderStatus: "new",
  lastChange: d.token,
  createdAt: d.at,
  updatedAt: d.at,
});

export const dealInsertForSubmission = (db: Database, deal: NewDeal, leadId: string, token: string) =>
  insertWhere(db, deals, dealRow(deal), submissionWon(leadId, token));

export type NewOffer = typeof offers.$inferInsert;

export const offerInsertForSubmission = (db: Database, offer: NewOffer, leadId: string, token: string) =>
  insertWhere(db, offers, offer, submissionWon(leadId, token));
