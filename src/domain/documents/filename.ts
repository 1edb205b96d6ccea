/**
 * The name a file is stored and offered for download under. Clients send
 * paths (`C:\scans\id.png`), control characters and names of any length; only
 * the last path part is kept, made printable and capped, extension kept.
 */
import { EXTENSIONS, UNKNOWN_EXTENSION, type FileKind } from "./file-type";

export const FILENAME_MAX_LENGTH = 200;
export const FALLBACK_FILENAME = "document";

// C0/C1 controls, and bidi overrides that make `gpj.exe` read as `exe.jpg`.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function sanitiseFilename(raw: string | null | undefined): string {
  const last = (raw ?? "").split(/[/\\]/).at(-1) ?? "";
  const name = last.replace(UNPRINTABLE, "").replace(/\s+/g, " ").trim().replace(/^\.+/, "");
  if (name === "") return FALLBACK_FILENAME;
  const chars = [...name];
  if (chars.length <= FILENAME_MAX_LENGTH) return name;
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : "";
  return chars.slice(0, FILENAME_MAX_LENGTH - [...extension].length).join("") + extension;
}

/**
 * The stored name ends in the extension of the kind the bytes showed, never
 * the one the client claimed: `Bank statement.pdf.exe`
 * holding a PDF is stored as `Bank statement.pdf`, `passport.pdf` holding a
 * PNG as `passport.png`, a name without extension gains one.
 */
export function filenameForKind(raw: string | null | undefined, kind: FileKind | null): string {
  const name = sanitiseFilename(raw);
  const extensions = kind ? EXTENSIONS[kind] : [UNKNOWN_EXTENSION];
  const endsRight = (n: string) => extensions.some((e) => n.toLowerCase().endsWith(`.${e}`));
  if (endsRight(name)) return name;
  const dot = name.lastIndexOf(".");
  const base = dot > 0 && name.length - dot <= 8 ? name.slice(0, dot) : name;
  return sanitiseFilename(endsRight(base) ? base : `${base}.${extensions[0]}`);
}
