/**
 * A document is decided the moment it arrives: accepted, or rejected with a
 * reason (kept and listed either way, so the partner sees why). The file kind
 * comes from its bytes; each document type takes the kinds a reader of that
 * document would expect. A bank statement in CSV or OFX must parse, and what
 * it says becomes the lead's statement figures; a PDF statement is kept
 * unparsed.
 */
import type { DOCUMENT_REJECTION_REASONS, DocumentType } from "../reference/values";
import { CONTENT_TYPES, sniffFile, UNKNOWN_CONTENT_TYPE, type FileKind } from "./file-type";
import { hasFormulaCells } from "./formula-cells";
import { parseStatementCsv } from "./statement-csv";
import { parseStatementOfx } from "./statement-ofx";
import type { ParsedStatement } from "./types";

const IMAGES_OR_PDF: readonly FileKind[] = ["pdf", "png", "jpeg"];
const FIGURES: readonly FileKind[] = ["pdf", "csv", "xlsx"];

/** File kinds accepted per document type. */
export const ALLOWED_KINDS: Record<DocumentType, readonly FileKind[]> = {
  bank_statements: ["pdf", "csv", "ofx"],
  filed_accounts: FIGURES,
  management_accounts: FIGURES,
  vat_returns: FIGURES,
  id_document: IMAGES_OR_PDF,
  proof_of_address: IMAGES_OR_PDF,
  invoice: IMAGES_OR_PDF,
  signed_agreement: ["pdf"],
  other: ["pdf", "png", "jpeg", "csv", "ofx", "xlsx"],
};

export type RejectionReason = (typeof DOCUMENT_REJECTION_REASONS)[number]["value"];

/** `formulaCells`: a CSV holding a cell a spreadsheet would run (formula-cells.ts); false for every other kind. */
export type DocumentDecision =
  | { state: "accepted"; reason: null; contentType: string; kind: FileKind; statement: ParsedStatement | null; formulaCells: boolean }
  | { state: "rejected"; reason: RejectionReason; contentType: string; kind: FileKind | null; statement: null; formulaCells: boolean };

const rejected = (reason: RejectionReason, kind: FileKind | null, formulaCells = false): DocumentDecision => ({
  state: "rejected",
  reason,
  contentType: kind ? CONTENT_TYPES[kind] : UNKNOWN_CONTENT_TYPE,
  kind,
  statement: null,
  formulaCells,
});

/**
 * Executables, markup and scripts are not decided at all: the caller refuses
 * them (`invalid_request` on `file`) before anything is stored; see `dangerousContent`.
 */
export function decideDocument(documentType: DocumentType, bytes: Uint8Array): DocumentDecision {
  if (bytes.length === 0) return rejected("empty_file", null);
  const { kind, text } = sniffFile(bytes);
  // A rejected file is kept and can still be downloaded, so it is flagged as well.
  const formulaCells = kind === "csv" && hasFormulaCells(text!);
  if (!kind || !ALLOWED_KINDS[documentType].includes(kind)) return rejected("unsupported_file_type", kind, formulaCells);
  const contentType = CONTENT_TYPES[kind];
  if (documentType !== "bank_statements" || (kind !== "csv" && kind !== "ofx")) return { state: "accepted", reason: null, contentType, kind, statement: null, formulaCells };
  const statement = kind === "csv" ? parseStatementCsv(text!) : parseStatementOfx(text!);
  return statement ? { state: "accepted", reason: null, contentType, kind, statement, formulaCells } : rejected("unreadable_statement", kind, formulaCells);
}
