/**
 * Attribution claims (migration 0024_company-claims, docs/leads.md
 * "Attribution"): the statements a submit adds to its batch, the read of the
 * claim that holds a company, and the operator's list and release.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import type { Database } from "../client";
import { insertWhere } from "../guarded";
import { companyClaims, type CompanyClaimRow } from "../schema/claims";
import { leadRouting } from "../schema/deals";
import { leads } from "../schema/leads";
import { auditEntryWhere } from "../portal/audit";
import { submissionWon } from "./routing";

interface NewClaim {
  id: string;
  environment: "sandbox" | "live";
  companyKey: string;
  leadId: string;
  organisationId: string;
  at: string;
  /** A reason when the claim is written already released (the sandbox's released number). */
  releasedWith?: string;
  /** Funded before this instant: out of the attribution window. */
  cutoff: string;
}

/**
 * The claim statements of a submit that routes: first retire the company's
 * claim when it no longer holds (its lead ended without funding or is gone;
 * funded before the window's cutoff; funded for this same partner, whose
 * new lead takes over), then insert this lead's claim if the submission won.
 * The insert fails the whole batch on the partial unique index when another
 * claim still holds: that failure is the decision, taken by the database.
 */
export function claimStatements(db: Database, claim: NewClaim, token: string) {
  const retire = db
    .update(companyClaims)
    .set({ active: false, endedAt: claim.at })
    .where(
      and(
        eq(companyClaims.environment, claim.environment),
        eq(companyClaims.companyKey, claim.companyKey),
        eq(companyClaims.active, true),
        sql`(
          not exists (select 1 from ${leads} l where l.id = ${companyClaims.leadId} and l.state not in ('declined', 'out_of_scope'))
          or exists (
            select 1 from ${leads} l left join ${leadRouting} r on r.lead_id = l.id
            where l.id = ${companyClaims.leadId} and l.state = 'funded'
              and (${companyClaims.organisationId} = ${claim.organisationId} or coalesce(r.outcome_at, l.updated_at) < ${claim.cutoff})
          )
        )`,
      ),
    );
  const insert = insertWhere(
    db,
    companyClaims,
    claim.releasedWith
      ? { id: claim.id, environment: claim.environment, companyKey: claim.companyKey, leadId: claim.leadId, organisationId: claim.organisationId, since: claim.at, active: false, endedAt: claim.at, releasedAt: claim.at, releaseReason: claim.releasedWith }
      : { id: claim.id, environment: claim.environment, companyKey: claim.companyKey, leadId: claim.leadId, organisationId: claim.organisationId, since: claim.at, active: true },
    submissionWon(claim.leadId, token),
  );
  return [retire, insert] as const;
}

/** Whether a failed batch failed on the one-active-claim index (D1 names the index's columns; drizzle wraps the cause). */
export function isClaimTaken(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const message = String((e as { message?: unknown }).message ?? "");
    if (/UNIQUE constraint failed: company_claims\.environment, company_claims\.company_key/.test(message)) return true;
  }
  return false;
}

/** The active claim on a company in an environment, if any. */
export async function activeClaim(db: Database, environment: "sandbox" | "live", companyKey: string): Promise<CompanyClaimRow | null> {
  const [row] = await db
    .select()
    .from(companyClaims)
    .where(and(eq(companyClaims.environment, environment), eq(companyClaims.companyKey, companyKey), eq(companyClaims.active, true)))
    .limit(1);
  return row ?? null;
}

/** The operator's list: the active claims of an environment, newest first. */
export const listActiveClaims = (db: Database, environment: "sandbox" | "live", limit: number) =>
  db
    .select()
    .from(companyClaims)
    .where(and(eq(companyClaims.environment, environment), eq(companyClaims.active, true)))
    .orderBy(desc(companyClaims.since))
    .limit(limit);

export async function findClaim(db: Database, id: string): Promise<CompanyClaimRow | null> {
  const [row] = await db.select().from(companyClaims).where(eq(companyClaims.id, id)).limit(1);
  return row ?? null;
}

/**
 * An operator's release as one batch: the claim stops holding (only if it
 * still does: the first statement is the guard) and the holder's audit log
 * records it, with the reason, written only if the release won.
 */
export function releaseStatements(db: Database, claim: CompanyClaimRow, reason: string, at: string, auditId: string) {
  const release = db
    .update(companyClaims)
    .set({ active: false, endedAt: at, releasedAt: at, releaseReason: reason })
    .where(and(eq(companyClaims.id, claim.id), eq(companyClaims.active, true)));
  const audit = auditEntryWhere(
    db,
    { id: auditId, organisationId: claim.organisationId, memberId: "operator", environment: claim.environment, action: "attribution.released", target: claim.id, at },
    sql`exists (select 1 from ${companyClaims} where ${companyClaims.id} = ${claim.id} and ${companyClaims.releasedAt} = ${at})`,
  );
  return [release, audit] as const;
}
