/**
 * Commission terms (db/schema/commission.ts): operator configuration, like the panel it prices, so
 * one set serves both environments. Rows are only ever inserted; the history is the table.
 */
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { CommissionTerms } from "../../domain/commission/terms";
import type { CurrencyCode } from "../../domain/commission/money";
import type { Database } from "../client";
import { commissionTerms, type CommissionTermsRow } from "../schema/commission";

const toTerms = (r: CommissionTermsRow): CommissionTerms => ({ ...r, currency: r.currency as CurrencyCode });

export const termsInsert = (db: Database, terms: CommissionTerms) => db.insert(commissionTerms).values(terms);

/** Every change of a product's terms (all partners, all currencies), newest first (in the order written). */
export async function termsHistory(db: Database, lenderOrganisationId: string, productId: string) {
  const rows = await db
    .select()
    .from(commissionTerms)
    .where(and(eq(commissionTerms.lenderOrganisationId, lenderOrganisationId), eq(commissionTerms.productId, productId)))
    .orderBy(desc(commissionTerms.effectiveAt), desc(sql`rowid`));
  return rows.map(toTerms);
}

/** The changes that can be in force for a partner on a product in a currency: its own and the product's default. */
export async function termsCandidates(db: Database, lenderOrganisationId: string, productId: string, currency: string, partnerOrganisationId: string) {
  const rows = await db
    .select()
    .from(commissionTerms)
    .where(
      and(
        eq(commissionTerms.lenderOrganisationId, lenderOrganisationId),
        eq(commissionTerms.productId, productId),
        eq(commissionTerms.currency, currency),
        inArray(commissionTerms.partnerOrganisationId, [partnerOrganisationId, ""]),
      ),
    )
    // Oldest first, in the order written: of two changes in one millisecond the later wins (termsInForce).
    .orderBy(asc(commissionTerms.effectiveAt), asc(sql`rowid`));
  return rows.map(toTerms);
}
