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
import { linesOf, readForm, textFields, textOf } from "../../kit/form";
import { EMPTY_KEY_FORM, KIND_LABEL, KeyIssuedPage, KeysPage, type KeyFormEntry } from "./keys-page";
import { CONFIRMED, Confirm, isConfirmed } from "../../kit/confirm";
import { formatFor } from "../../kit/format";
import { PortalPage } from "../layout";
import { noticeFrom, withNotice } from "./notices";
import { inputFeedback, parseForm, isNotFound, refusalForPage, type PageRefusal } from "../../kit/refusal";
import { requireFreshPasskey } from "../access/step-up";

/** The form's fields, validated by the operator API's own definitions; the environment is the member's, never the form's. */
const KeyForm = z.strictObject({ type: KeyType, allowed_origins: AllowedOrigins });

async function keysPage(c: PortalContext, entry: KeyFormEntry, refusal?: PageRefusal) {
  const viewer = c.get("viewer");
  const keys = await keysInScope(c.get("deps"), scopeOfViewer(viewer));
  const feedback = refusal ? { error: inputFeedback(refusal) } : { notice: noticeFrom(c.req.query("notice")) };
  return c.html(<KeysPage viewer={viewer} formToken={c.get("formToken")} keys={keys} entry={entry} feedback={feedback} />, refusal?.status ?? 200);
}

export function registerKeyPages(portal: Hono<PortalEnv>) {
  portal.get("/keys", (c) => keysPage(c, EMPTY_KEY_FORM));

  // A live key moves real money: creating one needs a passkey proof of the last minutes (issue 39 item 9).
  portal.on("POST", "/keys", requireFreshPasskey(() => `${PORTAL_ROUTE}/keys`, (c) => c.get("viewer").environment === "live"));

  portal.post("/keys", async (c) => {
    const viewer = c.get("viewer");
    const form = await readForm(c);
    const entry: KeyFormEntry = { type: textOf(form, "type") || "secret", allowed_origins: textOf(form, "allowed_origins") };
    try {
      const asked = parseForm(KeyForm, { type: entry.type, allowed_origins: linesOf(entry.allowed_origins) }, "form");
      const issued = await issueKey(c.get("deps"), viewer.organisationId, {
        environment: viewer.environment,
        type: asked.type,
        allowed_origins: asked.allowed_origins,
      });
      await recordPortalAction(c.get("deps"), viewer, "key.created", issued.client_id);
      return c.html(<KeyIssuedPage viewer={viewer} formToken={c.get("formToken")} serviceOrigin={new URL(c.req.url).origin} issued={{ ...issued, allowed_origins: asked.allowed_origins ?? [] }} />, 201);
    } catch (error) {
      return keysPage(c, entry, refusalForPage(error));
    }
  });

  // Revoking asks first (the kit's confirm page): only an active key of the member's organisation and environment, else 404.
  portal.get("/keys/:clientId/revoke", async (c) => {
    const viewer = c.get("viewer");
    const key = (await keysInScope(c.get("deps"), scopeOfViewer(viewer))).find((k) => k.client_id === c.req.param("clientId") && !k.revoked_at);
    if (!key) return c.html(notFoundPage(), 404);
    const facts: [string, string][] = [
      ["Client id", key.client_id],
      ["Type", KIND_LABEL[key.kind]],
      ["Environment", viewer.environment],
      ["Created", formatFor(null).time(key.created_at)],
    ];
    if (key.allowed_origins.length > 0) facts.push(["Origins", key.allowed_origins.join(", ")]);
    return c.html(
      <PortalPage title="Revoke an API key" viewer={viewer} formToken={c.get("formToken")}>
        <Confirm
          question={`Revoke ${key.client_id}?`}
          facts={facts}
          consequence={
            key.kind === "publishable"
              ? "Every website form and widget using this key stops working at once: their calls are refused."
              : "Every call made with this key is refused from the very next request: any system still using it stops working."
          }
          irreversible
          next="you are back on your keys, where this one is shown as revoked. Create another key first if something still needs one."
          action={`${PORTAL_ROUTE}/keys/${encodeURIComponent(key.client_id)}/revoke`}
          hidden={{ _form_token: c.get("formToken"), ...CONFIRMED }}
          confirmLabel="Revoke the key"
          cancelHref={`${PORTAL_ROUTE}/keys`}
          cancelLabel="Cancel, keep it"
        />
      </PortalPage>,
    );
  });

  portal.post("/keys/:clientId/revoke", async (c) => {
    const viewer = c.get("viewer");
    const clientId = c.req.param("clientId");
    if (!isConfirmed(textFields(await readForm(c)))) return c.redirect(`${PORTAL_ROUTE}/keys/${encodeURIComponent(clientId)}/revoke`, 303);
    try {
      await revokeClientKey(c.get("deps"), clientId, scopeOfViewer(viewer));
    } catch (error) {
      if (isNotFound(error)) return c.html(notFoundPage(), 404);
      throw error;
    }
    await recordPortalAction(c.get("deps"), viewer, "key.revoked", clientId);
    return c.redirect(withNotice(`${PORTAL_ROUTE}/keys`, "key-revoked"), 303);
  });
}
