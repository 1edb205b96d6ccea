import { Hono } from "hono";
import { html } from "hono/html";
import type { AppEnv } from "../../app-env";
import { parseKey } from "../../domain/identity/keys";
import { EMBED_ROUTE } from "../../lib/embed-route";
import { Refusal } from "../../lib/refusal";
import { WIDGET_HASH, WIDGET_SCRIPT } from "./widget-script.generated";

export { EMBED_ROUTE };
export const WIDGET_FILE = `prequalify.${WIDGET_HASH}.js`;

// A module script loaded from a partner's page is a cross-origin CORS fetch, so both files say `*`:
// they are public code and carry no credentials.
const SCRIPT_HEADERS = {
  "Content-Type": "text/javascript; charset=utf-8",
  "Access-Control-Allow-Origin": "*",
  "Cross-Origin-Resource-Policy": "cross-origin",
};

/** The loader stays small and briefly cached, so a new build reaches every page within minutes. */
const LOADER = `import "./${WIDGET_FILE}";\n`;

// The demo page proves the widget needs nothing a strict policy forbids: no inline script or style.
const DEMO_CSP =
  "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const DEMO_SCRIPT = `// Shows the widget's events on the demo page (docs/embed.md, "Events").
const log = document.getElementById("events");
for (const name of ["rfs-prequalified", "rfs-continue"]) {
  document.addEventListener(name, (event) => {
    const line = document.createElement("li");
    line.textContent = name + ": " + JSON.stringify(event.detail?.answer ?? event.detail).slice(0, 300);
    log.prepend(line);
  });
}
`;

const DEMO_STYLE = `body{font-family:system-ui,sans-serif;margin:0 auto;max-width:52rem;padding:1rem;line-height:1.5}
code{background:#f3f4f6;padding:0 .25em}rfs-prequalify{margin:1.5rem 0;border:1px solid #d1d5db;border-radius:8px}
#events{font-family:ui-monospace,monospace;font-size:.85rem;word-break:break-all}`;

export function createEmbedRoutes() {
  const embed = new Hono<AppEnv>();

  embed.get("/prequalify.js", (c) => c.body(LOADER, 200, { ...SCRIPT_HEADERS, "Cache-Control": "public, max-age=300" }));

  embed.get("/:file{prequalify\\.[a-f0-9]+\\.js}", (c) => {
    // An old hash is gone for good: its loader now names the new file.
    if (c.req.param("file") !== WIDGET_FILE) throw new Refusal("not_found", `No widget build ${c.req.param("file")}; load ${EMBED_ROUTE}/prequalify.js.`);
    return c.body(WIDGET_SCRIPT, 200, { ...SCRIPT_HEADERS, "Cache-Control": "public, max-age=31536000, immutable" });
  });

  embed.get("/demo.js", (c) => c.body(DEMO_SCRIPT, 200, { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=300" }));
  embed.get("/demo.css", (c) => c.body(DEMO_STYLE, 200, { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=300" }));

  embed.get("/demo", (c) => {
    const given = c.req.query("key") ?? "";
    const parsed = parseKey(given);
    const key = parsed?.kind === "publishable" ? given.trim() : null;
    const locale = /^[a-z]{2}(-[A-Z]{2})?$/.test(c.req.query("locale") ?? "") ? c.req.query("locale")! : "en-GB";
    const country = /^[A-Za-z]{2,3}$/.test(c.req.query("country") ?? "") ? c.req.query("country")! : "";
    const origin = new URL(c.req.url).origin;
    const page = html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Prequalification widget demo · Referral Funding Service</title>
    <link rel="stylesheet" href="${EMBED_ROUTE}/demo.css" />
    <script type="module" src="${EMBED_ROUTE}/prequalify.js"></script>
    <script type="module" src="${EMBED_ROUTE}/demo.js"></script>
  </head>
  <body>
    <main>
      <h1>Prequalification widget demo</h1>
      <p>This page is served under a strict Content-Security-Policy. On a partner's site the snippet is:</p>
      <pre><code>&lt;script type="module" src="${origin}${EMBED_ROUTE}/prequalify.js"&gt;&lt;/script&gt;
&lt;rfs-prequalify publishable-key="${key ?? "rfs_pub_live_…"}"${country ? ` country="${country}"` : ""} locale="${locale}"&gt;&lt;/rfs-prequalify&gt;</code></pre>
      ${key
        ? html`<rfs-prequalify publishable-key="${key}" locale="${locale}" ${country ? html`country="${country}"` : ""}></rfs-prequalify>`
        : html`<p role="alert">Add <code>?key=</code> and a publishable key whose allowed origins include <code>${origin}</code>: <code>npm run dev</code> prints this page's link with the demo key.</p>`}
      <h2>Events</h2>
      <ul id="events" aria-live="polite"></ul>
    </main>
  </body>
</html>`;
    return c.html(page, 200, { "Content-Security-Policy": DEMO_CSP, "Referrer-Policy": "no-referrer", "Cache-Control": "no-store" });
  });

  return embed;
}
