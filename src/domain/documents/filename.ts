/**
 * The name a file is stored and offered for download under. Clients send
 * paths (`C:\scans\id.png`), control characters and names of any length; only
 * the last path part is kept, made printable and capped, extension kept.
 */
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
