/**
 * The prequalification form for a partner's own website (docs/embed.md): the two-line snippet with
 * the partner's publishable key, and the origins that key allows. A publishable key is kept only as a
 * hash like every key, so the full snippet is shown when the key is created (keys-page.tsx) and this
 * page shows it with the key's public prefix to be completed.
 */
import { environmentInWords } from "../../kit/format";
import type { Hono } from "hono";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { keysInScope } from "../../../services/identity/organisations";
import { EMBED_ROUTE } from "../../../lib/embed-route";
import { PORTAL_ROUTE, type PortalEnv } from "../context";
import { PortalPage } from "../layout";

/** The snippet a partner pastes into their page: the loader from this service and the element. */
export function WebsiteSnippet(props: { serviceOrigin: string; publishableKey: string; allowedOrigins: string[] }) {
  const snippet = `<script type="module" src="${props.serviceOrigin}${EMBED_ROUTE}/prequalify.js"></script>\n<rfs-prequalify publishable-key="${props.publishableKey}" locale="en-GB"></rfs-prequalify>`;
  return (
    <div>
      <label for={`snippet-${props.publishableKey.slice(0, 40)}`}>Paste this where the form should appear</label>
      <textarea id={`snippet-${props.publishableKey.slice(0, 40)}`} readonly rows={3} class="snippet">
        {snippet}
      </textarea>
      <p class="muted">
        It works on these websites only (the key's allowed origins): {props.allowedOrigins.length > 0 ? props.allowedOrigins.join(", ") : "none yet"}. On a page with a
        Content-Security-Policy, allow <code>{props.serviceOrigin}</code> in <code>script-src</code> and <code>connect-src</code>.
      </p>
    </div>
  );
}

export function registerWebsiteFormPage(portal: Hono<PortalEnv>) {
  portal.get("/website-form", async (c) => {
    const viewer = c.get("viewer");
    const origin = new URL(c.req.url).origin;
    const keys = (await keysInScope(c.get("deps"), scopeOfViewer(viewer))).filter((k) => k.kind === "publishable" && !k.revoked_at);
    return c.html(
      <PortalPage title="Prequalification on your website" viewer={viewer} formToken={c.get("formToken")}>
        <p>
          Your visitors can check their funding options on your own website: the form asks no names or contact details, answers from the panel's current limits, and
          shows the disclaimer. It needs a <strong>publishable</strong> key for the {environmentInWords(viewer.environment)} environment, limited to your website's address.
        </p>
        <p>
          <a href={`${EMBED_ROUTE}/demo`}>See the form on the demo page</a> · <a href="/docs/guides/embed">Attributes, events, theming and languages</a>
        </p>
        {keys.length === 0 ? (
          <p>
            No publishable key in this environment yet. {viewer.role === "admin" ? <a href={`${PORTAL_ROUTE}/keys`}>Create one on the API keys page</a> : "Ask an admin of your organisation to create one."}
            ; the snippet with the whole key is shown once, when it is created.
          </p>
        ) : (
          keys.map((key) => (
            <section aria-label={`Publishable key ${key.client_id}`}>
              <h2>Key {key.client_id}</h2>
              <WebsiteSnippet serviceOrigin={origin} publishableKey={`${key.client_id}_…`} allowedOrigins={key.allowed_origins} />
              <p class="muted">Replace the “…” with the rest of the key, shown when it was created.</p>
            </section>
          ))
        )}
      </PortalPage>,
    );
  });
}
