const encoder = new TextEncoder();

export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function toBase64(bytes: ArrayBuffer | Uint8Array): string {
  let s = "";
  for (const b of new Uint8Array(bytes)) s += String.fromCharCode(b);
  return btoa(s);
}

export function fromBase64(text: string): Uint8Array {
  const bin = atob(text);
  return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
}

export function randomBytes(length: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(length));
}

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** Lower-case alphanumeric token; rejection sampling keeps it unbiased. */
export function randomToken(length: number, alphabet = ALPHABET): string {
  const out: string[] = [];
  const limit = 256 - (256 % alphabet.length);
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < limit && out.length < length) out.push(alphabet[b % alphabet.length]);
    }
  }
  return out.join("");
}

export async function sha256Hex(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

const importHmacKey = (keyBytes: Uint8Array) => crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);

/**
 * HMAC keys imported from a string, kept for the isolate's life: every signed link, cursor and
 * hub session is signed with one of a few secrets (SIGNING_SECRET and what is derived from it),
 * and importing the key again for each of a page's links was most of the signing's cost. Bounded;
 * a failed import is not kept. The map holds only what the isolate already holds in its env.
 */
const hmacKeys = new Map<string, Promise<CryptoKey>>();
const HMAC_KEYS_KEPT = 32;

function hmacKeyOf(key: string): Promise<CryptoKey> {
  let imported = hmacKeys.get(key);
  if (!imported) {
    if (hmacKeys.size >= HMAC_KEYS_KEPT) hmacKeys.clear();
    imported = importHmacKey(encoder.encode(key));
    hmacKeys.set(key, imported);
    imported.catch(() => hmacKeys.delete(key));
  }
  return imported;
}

export async function hmacSha256(key: string | Uint8Array, message: string | Uint8Array): Promise<ArrayBuffer> {
  const cryptoKey = await (typeof key === "string" ? hmacKeyOf(key) : importHmacKey(key));
  return crypto.subtle.sign("HMAC", cryptoKey, typeof message === "string" ? encoder.encode(message) : message);
}

/**
 * Constant-time comparison. workerd provides `crypto.subtle.timingSafeEqual`;
 * lengths are compared first, which leaks only the length, never content.
 */
export function timingSafeEqual(a: string, b: string): boolean {
  const left = encoder.encode(a);
  const right = encoder.encode(b);
  if (left.byteLength !== right.byteLength) return false;
  return (crypto.subtle as unknown as { timingSafeEqual(a: ArrayBufferView, b: ArrayBufferView): boolean }).timingSafeEqual(left, right);
}
