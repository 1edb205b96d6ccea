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

/**
 * A PDF starts with `%PDF-`. Readers accept the header anywhere in the first
 * KB, which is how a polyglot (an executable with `%PDF-` after its own
 * header) passed as a PDF: we take the first bytes only.
 */
const isPdf = (bytes: Uint8Array) => ascii(bytes, 0, 5) === "%PDF-";
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

/**
 * The HEIF image brands (ISO/IEC 23008-12): `heic`/`heix` and the rest are HEVC stills and
 * sequences (an iPhone photo), `mif1`/`msf1` plain HEIF. AVIF (`avif`) is HEIF too, but no phone
 * camera writes it, and the advice a HEIC photo gets would not fit it.
 */
const HEIF_BRANDS = new Set(["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "mif1", "msf1"]);

/**
 * A HEIC/HEIF image (what an iPhone camera saves by default): an ISO-BMFF `ftyp` box at the start
 * whose major brand is a HEIF one. No document type takes it (see decision.ts); the hub recognises
 * it only to say how to send the photo instead.
 */
export const isHeif = (bytes: Uint8Array) => ascii(bytes, 4, 8) === "ftyp" && HEIF_BRANDS.has(ascii(bytes, 8, 12));

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

/** The extension a stored file's name ends in, per kind; the first is the one added. */
export const EXTENSIONS: Record<FileKind, readonly string[]> = {
  pdf: ["pdf"],
  png: ["png"],
  jpeg: ["jpg", "jpeg"],
  xlsx: ["xlsx"],
  ofx: ["ofx", "qfx"],
  csv: ["csv"],
};
/** Files of no recognised kind (kept, rejected) are stored as opaque bytes. */
export const UNKNOWN_EXTENSION = "bin";

const EXECUTABLE_SIGNATURES: readonly (readonly number[])[] = [
  [0x4d, 0x5a], // MZ: Windows PE/DOS executables and DLLs
  [0x7f, 0x45, 0x4c, 0x46], // ELF
  [0xfe, 0xed, 0xfa, 0xce],
  [0xfe, 0xed, 0xfa, 0xcf],
  [0xce, 0xfa, 0xed, 0xfe],
  [0xcf, 0xfa, 0xed, 0xfe], // Mach-O, both byte orders, 32 and 64 bit
  [0xca, 0xfe, 0xba, 0xbe], // Mach-O universal binary, Java class
  [0x00, 0x61, 0x73, 0x6d], // WebAssembly
];

/** Markup a browser would render or run: sniffed in the first KB, as browsers sniff HTML in the first 512 bytes. */
const ACTIVE_MARKUP = /<(!doctype\s+html|html|head|body|script|iframe|frame|object|embed|svg|meta|link|style|img|a)[\s>/]|<\?php|<%/i;
/** Interpreter lines and shell batch files at the very start. */
const SCRIPT_START = /^(\uFEFF)?\s*(#!|@echo\s+off)/i;

export type Danger = "executable" | "markup" | "script";

/** How a refusal names what the file is, in the client's words. */
export const DANGER_NAMES: Record<Danger, string> = {
  executable: "a program (executable)",
  markup: "a web page or SVG image (HTML markup)",
  script: "a script",
};

/**
 * Content we refuse outright (never stored, never handed to a lender):
 * executables by their signature, HTML/SVG/markup and scripts by their text.
 * Answers what it is, or null for content that may be judged as a document.
 */
export function dangerousContent(bytes: Uint8Array): Danger | null {
  if (EXECUTABLE_SIGNATURES.some((signature) => startsWith(bytes, signature))) return "executable";
  const head = ascii(bytes, 0, 1024);
  if (SCRIPT_START.test(head)) return "script";
  if (ACTIVE_MARKUP.test(head)) return "markup";
  return null;
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
