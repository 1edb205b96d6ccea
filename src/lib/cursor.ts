import { hmacSha256, timingSafeEqual } from "./crypto";

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

const signingSecret = (secret: string | undefined) => {
  if (!secret) throw new Error("SIGNING_SECRET is not configured");
  return secret;
};

export async function encodeCursor(payload: unknown, scope: string, secret: string | undefined): Promise<string> {
  const body = toBase64Url(encoder.encode(JSON.stringify(payload)));
  const mac = toBase64Url(await hmacSha256(signingSecret(secret), `cursor:${scope}:${body}`));
  return `${body}.${mac}`;
}

/** The payload, or null for anything malformed, tampered with or signed for another scope. */
export async function decodeCursor(cursor: string, scope: string, secret: string | undefined): Promise<unknown | null> {
  const parts = cursor.split(".");
  if (parts.length !== 2 || !/^[A-Za-z0-9_-]+$/.test(parts[0]) || !/^[A-Za-z0-9_-]+$/.test(parts[1])) return null;
  const expected = toBase64Url(await hmacSha256(signingSecret(secret), `cursor:${scope}:${parts[0]}`));
  if (!timingSafeEqual(expected, parts[1])) return null;
  try {
    return JSON.parse(decoder.decode(fromBase64Url(parts[0])));
  } catch {
    return null;
  }
}
