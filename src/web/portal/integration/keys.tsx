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
import { Refusal } from "../../../lib/refusal";
import { AllowedOrigins, KeyType } from "../../../api/shared/schemas/api-key";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { linesOf, textOf } from "../../kit/form";
import { portalForm } from "../form-action";
import { EMPTY_KEY_FORM, KIND_LABEL, KeyIssuedPage, KeysPage, type KeyFormEntry } from "./keys-page";
import { CONFIRMED, Confirm } from "../../kit/confirm";
import { formatFor } from "../../kit/format";
import { PortalPage } from "../layout";
import { noticeFrom, withNotice } from "./notices";
import { inputFeedback, parseForm, type PageRefusal } from "../../kit/refusal";
import { requireFreshPasskey } from "../access/step-up";

/** The form's fields, validated by the operator API's own definitions; the environment is the member's, never the form's. */
const KeyForm = z.strictObject({ type: KeyType, allowed_origins: AllowedOrigins });

const clientIdOf = (c: PortalContext) => c.req.param("clientId") ?? "";

async function keysPage(c: PortalContext, entry: KeyFormEntry, refusal?: PageRefusal) {
  const viewer = c.get("viewer");
  const keys = await keysInScope(c.get("deps"), scopeOfViewer(viewer));
  const feedback = refusal ? { error: inputFeedback(refusal) } : { notice: noticeFrom(c.req.query("notice")) };
  return c.html(<KeysPage viewer={viewer} formToken={c.get("formToken")} keys={keys} entry={entry} feedback={feedback} />, refusal?.status ?? 200);
}

export function registerKeyPages(portal: Hono<PortalEnv>) {
  portal.get("/keys", (c) => keysPage(c, EMPTY_KEY_FORM));

  // A live key moves real money: creating one needs a passkey proof of the last minutes, so a stolen session cannot mint one.
  portal.on("POST", "/keys", requireFreshPasskey(() => `${PORTAL_ROUTE}/keys`, (c) => c.get("viewer").environment === "live"));

  portal.post(
    "/keys",
    portalForm<KeyFormEntry>({
      audit: () => ({ action: "key.created" }),
      draftOf: (form) => ({ type: textOf(form, "type") || "secret", allowed_origins: textOf(form, "allowed_origins") }),
      showAgain: (c, refusal, entry) => keysPage(c, entry, refusal),
      act: async (c, form, entry) => {
        const viewer = c.get("viewer");
        const asked = parseForm(KeyForm, { type: textOf(form, "type") || "secret", allowed_origins: linesOf(textOf(form, "allowed_origins")) }, "form");
        const issued = await issueKey(c.get("deps"), viewer.organisationId, {
          environment: viewer.environment,
          type: asked.type,
          allowed_origins: asked.allowed_origins,
        });
        entry.about(issued.client_id);
        return c.html(<KeyIssuedPage viewer={viewer} formToken={c.get("formToken")} serviceOrigin={new URL(c.req.url).origin} issued={{ ...issued, allowed_origins: asked.allowed_origins ?? [] }} />, 201);
      },
    }),
  );

  // Revoking asks first (the kit's confirm page): only an active key of the member's organisation and environment, else 404.
  portal.get("/keys/:clientId/revoke", async (c) => {
    const viewer = c.get("viewer");
    const key = (await keysInScope(c.get("deps"), scopeOfViewer(viewer))).find((k) => k.client_id === c.req.param("clientId") && !k.revoked_at);
    if (!key) throw new Refusal("not_found", "No such active key.");
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

  portal.post(
    "/keys/:clientId/revoke",
    portalForm({
      audit: (c) => ({ action: "key.revoked", target: clientIdOf(c) }),
      confirm: (c) => `${PORTAL_ROUTE}/keys/${encodeURIComponent(clientIdOf(c))}/revoke`,
      showAgain: (c, refusal) => keysPage(c, EMPTY_KEY_FORM, refusal),
      page: () => `${PORTAL_ROUTE}/keys`,
      act: async (c) => {
        // A revoked key, another organisation's or the other environment's: not_found, the 404 page.
        await revokeClientKey(c.get("deps"), clientIdOf(c), scopeOfViewer(c.get("viewer")));
        return withNotice(`${PORTAL_ROUTE}/keys`, "key-revoked");
      },
    }),
  );
}
