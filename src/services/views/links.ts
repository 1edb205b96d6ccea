/**
 * Absolute links the service hands out: signed file downloads and the client
 * hub. Every link starts at `PUBLIC_URL` (wrangler.toml), so an API response and
 * a webhook body built later by the queue consumer point at the same place.
 */
import type { Bindings } from "../../lib/env";
import { HUB_ROUTE, hubLinkToken, signFile } from "../../lib/signed-links";
import { signingSecretOf } from "../../lib/signing-secret";

/** Links in API responses: long enough to download, short enough to be worthless when leaked later. */
export const FILE_LINK_TTL_SECONDS = 60 * 60;
/** Links in webhook bodies are signed once and sent again on retries; they outlive the retry schedule (about 14.6 h from the first attempt). */
export const WEBHOOK_FILE_LINK_TTL_SECONDS = 24 * 60 * 60;

export type LinkEnv = Pick<Bindings, "SIGNING_SECRET" | "DEPLOYMENT" | "PUBLIC_URL">;

export interface Links {
  /** Signed, expiring download link of a stored file. */
  file(storageKey: string): Promise<string>;
  /** The client hub of a lead's current link generation (db/hub/hub-links.ts); `path` is a deep link inside it (`/requests/req_…`). */
  hub(leadId: string, generation: number, path?: string): Promise<string>;
}

const baseOf = (env: LinkEnv) => (env.PUBLIC_URL ?? "http://localhost:8787").replace(/\/+$/, "");

/** `fileTtlSeconds`: API responses take the default; the webhook dispatcher passes WEBHOOK_FILE_LINK_TTL_SECONDS. */
export function linksFor(env: LinkEnv, fileTtlSeconds = FILE_LINK_TTL_SECONDS, now: () => number = Date.now): Links {
  const secret = signingSecretOf(env);
  const base = baseOf(env);
  return {
    async file(storageKey) {
      return base + (await signFile(secret, storageKey, Math.floor(now() / 1000) + fileTtlSeconds));
    },
    async hub(leadId, generation, path = "") {
      return `${base}${HUB_ROUTE}/${leadId}/${await hubLinkToken(secret, leadId, generation)}${path}`;
    },
  };
}
