import type { DOCUMENT_REQUEST_STATUSES, DOCUMENT_STATES } from "../reference/values";

/** Who put a file on the lead. */
export type DocumentSource = "partner_upload" | "client_upload";

/** A document is decided in the request that receives it: `accepted`, or `rejected` with a reason (reference/values.ts owns the list). */
export type DocumentState = (typeof DOCUMENT_STATES)[number]["value"];

/** Document request status (spec, States): open requests are those not forwarded or waived (reference/values.ts owns the list). */
export type RequestStatus = (typeof DOCUMENT_REQUEST_STATUSES)[number]["value"];

/** What a parsed CSV or OFX bank statement yields. Money in major units of the statement's currency. */
export interface ParsedStatement {
  format: "csv" | "ofx";
  /** `bank` for a bank account; `card` for a credit-card account (OFX CREDITCARDMSGSRSV1). */
  account_kind: "bank" | "card";
  currency: string | null;
  period_start: string;
  period_end: string;
  transaction_count: number;
  credits_total: number;
  debits_total: number;
  /** Credits per calendar month covered, averaged: the `statements` basis of monthly_revenue. */
  monthly_revenue: number;
  /**
   * Each calendar month the transactions touch, oldest first: credits and debits (magnitudes, major units).
   * Absent on statements parsed before it was kept (issue 45 item 6); the lender's page then says so.
   */
  months?: { month: string; credits: number; debits: number }[];
}

export interface StoredDocument {
  id: string;
  environment: "sandbox" | "live";
  leadId: string;
  partnerOrganisationId: string;
  dealRef: string | null;
  requestId: string | null;
  source: DocumentSource;
  documentType: string;
  filename: string;
  contentType: string;
  byteSize: number;
  state: DocumentState;
  reason: string | null;
  storageKey: string;
  statement: ParsedStatement | null;
  /** A CSV with a cell a spreadsheet would run as a formula (formula-cells.ts): shown to whoever may download it. */
  formulaCells: boolean;
  receivedAt: string;
  decidedAt: string | null;
}

export interface DocumentRequest {
  id: string;
  dealRef: string;
  environment: "sandbox" | "live";
  lenderOrganisationId: string;
  leadId: string | null;
  itemType: string;
  documentType: string;
  label: string;
  note: string | null;
  status: RequestStatus;
  requestedVia: string;
  fileCount: number;
  requestedAt: string;
  uploadedAt: string | null;
  forwardedAt: string | null;
  waivedAt: string | null;
}

export const OPEN_REQUEST_STATUSES: readonly RequestStatus[] = ["requested", "uploaded"];
export const OPEN_REQUESTS_PER_DEAL = 20;
