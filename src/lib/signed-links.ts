/**
 * Worker-signed links: download links for stored files (HMAC over the path and
 * the expiry, so a tampered or expired link is refused) and the client hub's
 * per-lead token. Each purpose signs its own labelled message, so a hub token
 * can never pass as a file signature or the reverse.
 */
import { hmacSha256, timingSafeEqual, toHex } from "./crypto";

export const FILE_ROUTE = "/files";
export const HUB_ROUTE = "/hub";
/** The application link's pages (issue 44). */
export const APPLICATION_ROUTE = "/apply";

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

/**
 * The hub token of a lead's link generation. Generation 0 is the lead's first
 * link and keeps the original message, so links handed out before rotation
 * existed still work (until they expire); a rotation changes the message and
 * so the token.
 */
export async function hubLinkToken(secret: string, leadId: string, generation: number) {
  if (generation === 0) return hubToken(secret, leadId);
  return toHex(await hmacSha256(secret, `hub\n${leadId}\n${generation}`)).slice(0, 40);
}

export async function checkHubLinkToken(secret: string, leadId: string, generation: number, token: string) {
  return timingSafeEqual(await hubLinkToken(secret, leadId, generation), token.toLowerCase());
}

/** The hub session cookie's name; its path is the lead's hub, so two leads' sessions sit side by side. */
export const HUB_SESSION_COOKIE = "rfs_hub";

const hubSessionMessage = (leadId: string, generation: number, expires: number) => `hub-session\n${leadId}\n${generation}\n${expires}`;

/** `<generation>.<expires>.<hmac>`: a session of one link generation of one lead, until `expires` (unix seconds). */
export async function signHubSession(secret: string, leadId: string, generation: number, expires: number) {
  return `${generation}.${expires}.${toHex(await hmacSha256(secret, hubSessionMessage(leadId, generation, expires)))}`;
}

/** The session's generation when it is genuine and unexpired; null otherwise. */
export async function checkHubSession(secret: string, leadId: string, value: string, nowSeconds: number): Promise<number | null> {
  const match = /^(\d{1,9})\.(\d{1,12})\.([0-9a-f]{64})$/.exec(value);
  if (!match) return null;
  const [, generation, expires, mac] = match;
  const expected = toHex(await hmacSha256(secret, hubSessionMessage(leadId, Number(generation), Number(expires))));
  if (!timingSafeEqual(expected, mac!)) return null;
  return Number(expires) > nowSeconds ? Number(generation) : null;
}
