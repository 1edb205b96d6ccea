/**
 * Signed downloads, served by the Worker itself: `GET /files/<storage key>?expires=&signature=`.
 * No key or token is needed (the link is the credential); a tampered or expired
 * link is 403 `link_invalid`, a link to a file that is gone is 404.
 */
import { Hono } from "hono";
import type { AppEnv } from "../../app-env";
import { Refusal } from "../../lib/refusal";
import { checkFileLink, FILE_ROUTE } from "../../lib/signed-links";
import { signingSecretOf } from "../../lib/signing-secret";

/** Quotes a filename for Content-Disposition: an ASCII fallback plus the RFC 5987 UTF-8 form. */
function attachment(filename: string) {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export function createFileRoutes() {
  const files = new Hono<AppEnv>();
  files.get("/*", async (c) => {
    const storageKey = c.req.path.slice(FILE_ROUTE.length + 1);
    const secret = signingSecretOf(c.env);
    const check = await checkFileLink(secret, storageKey, c.req.query("expires"), c.req.query("signature"), Math.floor(Date.now() / 1000));
    if (check === "expired") throw new Refusal("link_invalid", "This download link has expired; read the list again for a fresh link.");
    if (check !== "valid") throw new Refusal("link_invalid", "This download link is not valid; use the link exactly as the API returned it.");
    // Stored files live under `<kind>/<environment>/…`; the sandbox host serves sandbox files only.
    if (c.get("sandboxHost") && storageKey.split("/")[1] !== "sandbox") throw new Refusal("not_found", "The file behind this link no longer exists.");
    const object = await c.env.DOCUMENTS.get(storageKey);
    if (!object) throw new Refusal("not_found", "The file behind this link no longer exists.");
    const filename = object.customMetadata?.filename ?? storageKey.split("/").at(-1)!;
    return new Response(object.body, {
      headers: {
        "Content-Type": object.httpMetadata?.contentType ?? "application/octet-stream",
        "Content-Length": String(object.size),
        "Content-Disposition": attachment(filename),
        // Uploaded bytes are never rendered as a page of ours.
        "Content-Security-Policy": "sandbox; default-src 'none'",
        "Cache-Control": "private, no-store",
        ETag: object.httpEtag,
      },
    });
  });
  return files;
}
