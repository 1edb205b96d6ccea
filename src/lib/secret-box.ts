/**
 * Encryption at rest for secrets the service must be able to use again (webhook
 * signing secrets): unlike API keys they cannot be stored as a hash. AES-256-GCM
 * with a key derived (HKDF-SHA256) from the Worker secret SIGNING_SECRET and a
 * purpose label, so the same root secret never keys two different jobs.
 * Stored form: `v1.<base64 iv>.<base64 ciphertext+tag>`.
 */
import { fromBase64, randomBytes, toBase64 } from "./crypto";

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function boxKey(rootSecret: string, purpose: string): Promise<CryptoKey> {
  const cacheKey = `${purpose}\u0000${rootSecret}`;
  let key = keys.get(cacheKey);
  if (!key) {
    key = crypto.subtle
      .importKey("raw", encoder.encode(rootSecret), "HKDF", false, ["deriveKey"])
      .then((root) =>
        crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: encoder.encode("rfs-secret-box"), info: encoder.encode(purpose) },
          root,
          { name: "AES-GCM", length: 256 },
          false,
          ["encrypt", "decrypt"],
        ),
      );
    keys.set(cacheKey, key);
  }
  return key;
}

export async function sealSecret(rootSecret: string, purpose: string, plaintext: string): Promise<string> {
  const iv = randomBytes(12);
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await boxKey(rootSecret, purpose), encoder.encode(plaintext));
  return `v1.${toBase64(iv)}.${toBase64(sealed)}`;
}

export async function openSecret(rootSecret: string, purpose: string, stored: string): Promise<string> {
  const [version, iv, sealed] = stored.split(".");
  if (version !== "v1" || !iv || !sealed) throw new Error("unreadable sealed secret");
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64(iv) }, await boxKey(rootSecret, purpose), fromBase64(sealed));
  return new TextDecoder().decode(plain);
}
