/**
 * Worker-signed links: download links for stored files (HMAC over the path and
 * the expiry, so a tampered or expired link is refused) and the client hub's
 * per-lead token. Each purpose signs its own labelled message, so a hub token
 * can never pass as a file signature or the reverse.
 */
import { hmacSha256, timingSafeEqual, toHex } from "./crypto";

export const FILE_ROUTE = "/files";
export const HUB_ROUTE = "/hub";

/** Storage keys are `/`-separated segments of `[A-Za-z0-9._-]`; each segment is kept as is in the URL. */
export const filePath = (storageKey: string) => `${FILE_ROUTE}/${storageKey}`;

const fileMessage = (storageKey: string, expires: number) => `file\n${filePath(storageKey)}\n${expires}`;

/** `?expires=<unix seconds>&signature=<hex>` for one stored file. */
export async function signFile(secret: string, storageKey: string, expires: number) {
  const signature = toHex(await hmacSha256(secret, fileMessage(storageKey, expires)));
  return `${filePath(storageKey)}?expires=${expires}&signature=${signature}`;
}

export type FileLinkCheck = "valid" | "expired" | "tampered";

export async function checkFileLink(secret: string, storageKey: string, expires: string | undefined, signature: string | undefined, nowSeconds: number): Promise<FileLinkCheck> {
  if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return "tampered";
  const expected = toHex(await hmacSha256(secret, fileMessage(storageKey, Number(expires))));
  if (!timingSafeEqual(expected, signature.toLowerCase())) return "tampered";
  return Number(expires) < nowSeconds ? "expired" : "valid";
}

/** The hub token of a lead: stable, so `upload_url` is the same on every read. */
export async function hubToken(secret: string, leadId: string) {
  return toHex(await hmacSha256(secret, `hub\n${leadId}`)).slice(0, 40);
}

export async function checkHubToken(secret: string, leadId: string, token: string) {
  return timingSafeEqual(await hubToken(secret, leadId), token.toLowerCase());
}
