/**
 * `/portal/keys`: the same key service as the operator API
 * (services/identity/organisations.ts), always with the member's own organisation and
 * environment, never one the form names.
 *
 * The new key is rendered in the answer to the post that created it (201,
 * `no-store` like every portal page) and nowhere else: not in a redirect URL,
 * a cookie, a log or a server-side stash. Stashing it for a PRG redirect would
 * mean writing the clear key somewhere, however briefly; answering the post
 * directly keeps "only the hash is stored" true. The price is that reloading
 * the result page asks to send the form again, which would create (and audit)
 * a second key rather than show the first.
 */
import { z } from "@hono/zod-openapi";
import type { Hono } from "hono";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { issueKey, keysInScope, revokeClientKey } from "../../../services/identity/organisations";
import { recordPortalAction } from "../../../services/portal/audit";
import { AllowedOrigins, KeyType } from "../../../api/shared/schemas/api-key";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { notFoundPage } from "../refused-page";
import { linesOf, textOf } from "./form-fields";
import { EMPTY_KEY_FORM, KeyIssuedPage, KeysPage, type KeyFormEntry } from "./keys-page";
import { noticeFrom, withNotice } from "./notices";
import { isNotFound, refusalOf, type Refusal } from "./refusal";

/** The form's fields, validated by the operator API's own definitions; the environment is the member's, never the form's. */
const KeyForm = z.strictObject({ type: KeyType, allowed_origins: AllowedOrigins });

async function keysPage(c: PortalContext, entry: KeyFormEntry, refusal?: Refusal) {
  const viewer = c.get("viewer");
  const keys = await keysInScope(c.get("db"), scopeOfViewer(viewer));
  const feedback = refusal ? { error: refusal.error } : { notice: noticeFrom(c.req.query("notice")) };
  return c.html(<KeysPage viewer={viewer} formToken={c.get("formToken")} keys={keys} entry={entry} feedback={feedback} />, refusal?.status ?? 200);
}

export function registerKeyPages(portal: Hono<PortalEnv>) {
  portal.get("/keys", (c) => keysPage(c, EMPTY_KEY_FORM));

  portal.post("/keys", async (c) => {
    const viewer = c.get("viewer");
    const form = await c.req.formData();
    const entry: KeyFormEntry = { type: textOf(form, "type") || "secret", allowed_origins: textOf(form, "allowed_origins") };
    try {
      const parsed = KeyForm.safeParse({ type: entry.type, allowed_origins: linesOf(entry.allowed_origins) });
      if (!parsed.success) throw parsed.error;
      const issued = await issueKey(c.get("db"), viewer.organisationId, {
        environment: viewer.environment,
        type: parsed.data.type,
        allowed_origins: parsed.data.allowed_origins,
      });
      await recordPortalAction(c.get("db"), viewer, "key.created", issued.client_id);
      return c.html(<KeyIssuedPage viewer={viewer} formToken={c.get("formToken")} issued={issued} />, 201);
    } catch (error) {
      return keysPage(c, entry, refusalOf(error));
    }
  });

  portal.post("/keys/:clientId/revoke", async (c) => {
    const viewer = c.get("viewer");
    const clientId = c.req.param("clientId");
    try {
      await revokeClientKey(c.get("db"), c.env, clientId, scopeOfViewer(viewer));
    } catch (error) {
      if (isNotFound(error)) return c.html(notFoundPage(), 404);
      throw error;
    }
    await recordPortalAction(c.get("db"), viewer, "key.revoked", clientId);
    return c.redirect(withNotice(`${PORTAL_ROUTE}/keys`, "key-revoked"), 303);
  });
}
