/**
 * A ledger entry as each reader sees it. The partner's view names the option's product family and
 * never the lender (nor the lender's deal reference); the lender's names its deal; the operator's
 * names everyone.
 */
import type { CommissionEntryRow, NewCommissionEntry } from "../../db/commission/ledger";
import type { StatementEntry } from "../../domain/commission/statement";
import type { CurrencyCode } from "../../domain/commission/money";

type Entry = NewCommissionEntry | CommissionEntryRow;

export const partnerEntryView = (e: Entry): StatementEntry & { accrued_entry_id: string | null; month: string } => ({
  id: e.id,
  kind: e.kind,
  lead_id: e.leadId,
  product_family: e.productFamily ?? null,
  amount: e.amount,
  currency: e.currency as CurrencyCode,
  funded_amount: e.fundedAmount ?? null,
  payment_reference: e.paymentReference ?? null,
  reason: e.reason ?? null,
  accrued_entry_id: e.accruedEntryId ?? null,
  month: e.month,
  created_at: e.createdAt,
});

export const lenderEntryView = (e: CommissionEntryRow) => ({
  id: e.id,
  kind: e.kind,
  deal_ref: e.dealRef,
  product_id: e.productId,
  amount: e.amount,
  currency: e.currency,
  funded_amount: e.fundedAmount,
  basis: e.basis,
  rate_bps: e.rateBps,
  clawback_days: e.clawbackDays,
  payment_reference: e.paymentReference,
  reason: e.reason,
  accrued_entry_id: e.accruedEntryId,
  month: e.month,
  created_at: e.createdAt,
});

export const operatorEntryView = (e: CommissionEntryRow) => ({
  ...lenderEntryView(e),
  environment: e.environment,
  partner_organisation_id: e.partnerOrganisationId,
  lender_organisation_id: e.lenderOrganisationId,
  lead_id: e.leadId,
  product_family: e.productFamily,
  terms_id: e.termsId,
});
