/**
 * What a file is, read from its bytes: the client's Content-Type and file
 * extension are never trusted. Text formats (OFX, CSV) must be readable text.
 */
import { csvRows } from "./statement-csv";

export type FileKind = "pdf" | "png" | "jpeg" | "xlsx" | "ofx" | "csv";

export const CONTENT_TYPES: Record<FileKind, string> = {
  pdf: "application/pdf",
  png: "image/png",
  jpeg: "image/jpeg",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ofx: "application/x-ofx",
  csv: "text/csv",
};

/** Stored for files of no recognised kind (they are rejected, but kept). */
export const UNKNOWN_CONTENT_TYPE = "application/octet-stream";

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) => signature.every((b, i) => bytes[at + i] === b);
const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, Math.min(to, bytes.length)));

/** PDF readers accept the header anywhere in the first 1024 bytes. */
const isPdf = (bytes: Uint8Array) => ascii(bytes, 0, 1024).includes("%PDF-");
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const ZIP = [0x50, 0x4b, 0x03, 0x04];

function includesAscii(bytes: Uint8Array, needle: string) {
  const first = needle.charCodeAt(0);
  outer: for (let i = bytes.indexOf(first); i !== -1 && i <= bytes.length - needle.length; i = bytes.indexOf(first, i + 1)) {
    for (let j = 1; j < needle.length; j++) if (bytes[i + j] !== needle.charCodeAt(j)) continue outer;
    return true;
  }
  return false;
}

/** An Office Open XML workbook: a zip holding the part `xl/workbook.xml` (a .docx or any other zip is not a spreadsheet). */
const isXlsx = (bytes: Uint8Array) => startsWith(bytes, ZIP) && includesAscii(bytes, "xl/workbook");

/** The bytes as text, if they are text: valid UTF-8 without control characters other than tab and line breaks. */
export function readableText(bytes: Uint8Array): string | null {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
  return /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(text) ? null : text.replace(/^\uFEFF/, "");
}

const isOfx = (text: string) => /^\s*(OFXHEADER\s*:|<\?xml[^>]*>\s*(<\?OFX[^>]*>\s*)?<OFX>|<\?OFX|<OFX>)/i.test(text);

/** CSV: at least two rows, most of them split into several fields by one delimiter. Anything else textual is not a format we take. */
function isCsv(text: string) {
  const head = text.slice(0, 64 * 1024);
  return [",", ";", "\t"].some((delimiter) => {
    const rows = csvRows(head, delimiter).slice(0, 50);
    return rows.length >= 2 && rows.filter((r) => r.length > 1).length * 2 >= rows.length;
  });
}

export interface Sniffed {
  kind: FileKind | null;
  /** The decoded text of OFX and CSV files, so it is decoded once. */
  text: string | null;
}

export function sniffFile(bytes: Uint8Array): Sniffed {
  if (isPdf(bytes)) return { kind: "pdf", text: null };
  if (startsWith(bytes, PNG)) return { kind: "png", text: null };
  if (startsWith(bytes, JPEG)) return { kind: "jpeg", text: null };
  if (isXlsx(bytes)) return { kind: "xlsx", text: null };
  const text = readableText(bytes);
  if (text === null) return { kind: null, text: null };
  if (isOfx(text)) return { kind: "ofx", text };
  if (isCsv(text)) return { kind: "csv", text };
  return { kind: null, text: null };
}
