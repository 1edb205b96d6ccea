import { hmacSha256, timingSafeEqual } from "./crypto";
import { Refusal } from "./refusal";

/**
 * Opaque, signed pagination cursors: base64url(JSON) + "." + base64url(HMAC).
 * The HMAC also covers the caller's scope, so a cursor lifted from another
 * account or environment (or edited by hand) is refused rather than read.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const toBase64Url = (bytes: ArrayBuffer | Uint8Array) => {
  let s = "";
  for (const b of new Uint8Array(bytes)) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};

const fromBase64Url = (text: string) => {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4)), (ch) => ch.charCodeAt(0));
};

export async function encodeCursor(payload: unknown, scope: string, secret: string): Promise<string> {
  const body = toBase64Url(encoder.encode(JSON.stringify(payload)));
  const mac = toBase64Url(await hmacSha256(secret, `cursor:${scope}:${body}`));
  return `${body}.${mac}`;
}

/** The payload, or null for anything malformed, tampered with or signed for another scope. */
export async function decodeCursor(cursor: string, scope: string, secret: string): Promise<unknown | null> {
  const parts = cursor.split(".");
  if (parts.length !== 2 || !/^[A-Za-z0-9_-]+$/.test(parts[0]) || !/^[A-Za-z0-9_-]+$/.test(parts[1])) return null;
  const expected = toBase64Url(await hmacSha256(secret, `cursor:${scope}:${parts[0]}`));
  if (!timingSafeEqual(expected, parts[1])) return null;
  try {
    return JSON.parse(decoder.decode(fromBase64Url(parts[0])));
  } catch {
    return null;
  }
}

/**
 * Where a keyset page ended. Lists order by (created_at, seq), newest first: `seq` is the row's
 * SQLite rowid, which grows in the order rows are written, so two rows written in the same
 * millisecond keep the order they were written in (docs/architecture.md, "List order").
 */
export interface KeysetPosition {
  createdAt: string;
  seq: number;
}

/** The position a cursor payload holds (`c` the timestamp, `n` the sequence), or null. */
export function positionOf(payload: { c?: unknown; n?: unknown } | null): KeysetPosition | null {
  if (!payload || typeof payload.c !== "string" || typeof payload.n !== "number" || !Number.isSafeInteger(payload.n)) return null;
  return { createdAt: payload.c, seq: payload.n };
}

const invalidCursor = () =>
  new Refusal("invalid_request", "query.cursor is not a cursor this API issued; pass `next_cursor` from the previous page unchanged.", {
    field: "query.cursor",
  });

/** The position a list's `cursor` query names, or null for the first page; anything else is `invalid_request` naming `query.cursor`. */
export async function readKeysetCursor(cursor: string | undefined, scope: string, secret: string): Promise<KeysetPosition | null> {
  if (cursor === undefined) return null;
  const position = positionOf((await decodeCursor(cursor, scope, secret)) as { c?: unknown; n?: unknown } | null);
  if (!position) throw invalidCursor();
  return position;
}

/** The `next_cursor` of a page: null when the page is the last. */
export async function nextKeysetCursor(last: KeysetPosition | undefined, more: boolean, scope: string, secret: string) {
  return more && last ? encodeCursor({ c: last.createdAt, n: last.seq }, scope, secret) : null;
}

/**
 * A position in a list read from several databases and merged (the portal's audit log: db/placement.ts
 * keeps it in every database): the keyset position in the row's own database and that database's rank.
 * The merged order is (timestamp, rank, rowid), newest first: rowids of two databases do not compare,
 * so each database continues from the position by its rank (db/portal/audit.ts `auditPage`).
 */
export interface MergedPosition extends KeysetPosition {
  database: number;
}

/** As `readKeysetCursor`, for a merged list. */
export async function readMergedCursor(cursor: string | undefined, scope: string, secret: string): Promise<MergedPosition | null> {
  if (cursor === undefined) return null;
  const payload = (await decodeCursor(cursor, scope, secret)) as { c?: unknown; n?: unknown; d?: unknown } | null;
  const position = positionOf(payload);
  if (!position || !Number.isSafeInteger(payload?.d)) throw invalidCursor();
  return { ...position, database: payload!.d as number };
}

/** As `nextKeysetCursor`, for a merged list. */
export async function nextMergedCursor(last: MergedPosition | undefined, more: boolean, scope: string, secret: string) {
  return more && last ? encodeCursor({ c: last.createdAt, n: last.seq, d: last.database }, scope, secret) : null;
}
