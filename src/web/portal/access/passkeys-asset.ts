import type { Hono } from "hono";
import type { PortalEnv } from "../context";
import { PASSKEYS_SCRIPT } from "./passkeys-script.generated";

/**
 * The portal's one script: the WebAuthn ceremonies with @simplewebauthn/browser
 * bundled in (scripts/build-portal-script.mjs), served by this Worker so the
 * CSP's `script-src 'self'` holds and nothing loads from a CDN. It is part of
 * the Worker's code, so it is always there (no assets binding to be missing).
 */
export const PASSKEYS_SCRIPT_PATH = "/portal/assets/passkeys.js";

export function registerPasskeysAsset(portal: Hono<PortalEnv>) {
  portal.get("/assets/passkeys.js", (c) => c.body(PASSKEYS_SCRIPT, 200, { "Content-Type": "text/javascript; charset=utf-8" }));
}
