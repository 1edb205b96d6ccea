import { Hono, type MiddlewareHandler } from "hono";
import type { AppEnv } from "../../app-env";
import { Refusal } from "../../lib/refusal";
import { GUIDE_IMAGES, GUIDES, type Guide } from "./guides.generated";
import { NOTES_CSS, notesHtml } from "./notes";

type DocsEnv = { Bindings: AppEnv["Bindings"]; Variables: AppEnv["Variables"] & { cspNonce: string } };

const toBase64Url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/**
 * The reference's Content-Security-Policy: scripts only from this origin (Scalar's bundle) and the
 * inline start-up script carrying this answer's nonce; the documents are fetched from this origin
 * only; nothing may frame the page. Scalar styles itself at run time, hence inline styles; its icons
 * and fonts are data: URLs.
 */
export function docsContentSecurityPolicy(nonce: string) {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export interface ReferenceSource {
  title: string;
  slug: string;
  /** Where the OpenAPI 3.1 document is served. */
  url: string;
}

/** Scalar's standalone bundle, served from the Worker's static assets (wrangler.toml [assets]). */
export const SCRIPT_PATH = "/docs/scalar.js";
const ASSET = "/standalone.js";
/** A year: the longest lifetime caches honour. The hashed name changes whenever the content does. */
const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * The script's content hash (16 hex digits of its SHA-256), read once per isolate and assets binding:
 * the page names `/docs/scalar.<hash>.js`, which is served `immutable`, so a browser fetches the
 * 4.3 MB script once per release of it and never revalidates.
 */
const hashes = new WeakMap<Fetcher, Promise<string | null>>();
export function scriptHash(assets: Fetcher | undefined, origin: string): Promise<string | null> {
  if (!assets) return Promise.resolve(null);
  let hash = hashes.get(assets);
  if (!hash) {
    hash = (async () => {
      const asset = await assets.fetch(new URL(ASSET, origin));
      if (!asset.ok) return null;
      const digest = await crypto.subtle.digest("SHA-256", await asset.arrayBuffer());
      return [...new Uint8Array(digest).slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
    })();
    hashes.set(assets, hash);
    hash.then((h) => h ?? hashes.delete(assets), () => hashes.delete(assets));
  }
  return hash;
}

export const hashedScriptPath = (hash: string) => `/docs/scalar.${hash}.js`;

/**
 * The encoding the script is sent in: Brotli, else gzip, when the request accepts it (q=0 refuses).
 * The Workers runtime compresses a body whose response names a `Content-Encoding`; so does the edge.
 */
export function scriptEncoding(acceptEncoding: string | undefined): "br" | "gzip" | null {
  const accepted = new Set(
    (acceptEncoding ?? "")
      .split(",")
      .map((part) => part.trim().toLowerCase().split(";"))
      .filter(([, ...params]) => !params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p)))
      .map(([coding]) => coding),
  );
  if (accepted.has("br")) return "br";
  if (accepted.has("gzip")) return "gzip";
  return null;
}

/**
 * The API reference: Scalar rendering the OpenAPI documents the APIs serve,
 * with its script served by this Worker, so nothing loads from a CDN and the
 * reference cannot drift from the documents. Scalar's network features that
 * would call out (fonts, telemetry, its AI agent, MCP) are off.
 */
export function createDocsPage(sources: ReferenceSource[]) {
  const docs = new Hono<DocsEnv>();
  // Every page of the reference gets the policy; its nonce is fresh per answer.
  docs.use("*", async (c, next) => {
    const nonce = toBase64Url(crypto.getRandomValues(new Uint8Array(18)));
    c.set("cspNonce", nonce);
    await next();
    if ((c.res.headers.get("Content-Type") ?? "").startsWith("text/html")) c.res.headers.set("Content-Security-Policy", docsContentSecurityPolicy(nonce));
  });
  // Scalar's page builder loads on the first visit to /docs, not when the Worker starts; one
  // page per script address (the hashed one, or the plain one where the assets are missing).
  const pages = new Map<string, MiddlewareHandler<DocsEnv>>();
  const reference: MiddlewareHandler<DocsEnv> = async (c, next) => {
    const hash = await scriptHash(c.env.ASSETS, c.req.url);
    const cdn = hash ? hashedScriptPath(hash) : SCRIPT_PATH;
    let scalar = pages.get(cdn);
    if (!scalar) {
      scalar = (await import("@scalar/hono-api-reference")).Scalar({ ...scalarOptions, cdn }) as unknown as MiddlewareHandler<DocsEnv>;
      pages.set(cdn, scalar);
    }
    return scalar(c, next);
  };
  const scalarOptions = {
    pageTitle: "Referral Funding Service API",
    cdn: SCRIPT_PATH,
    sources: sources.map((s, i) => ({ ...s, default: i === 0, agent: { disabled: true } })),
    withDefaultFonts: false,
    telemetry: false,
    mcp: { disabled: true },
    showDeveloperTools: "never",
    customCss: NOTES_CSS,
  } as const;

  docs.get("/", async (c, next) => {
    await next();
    // The anchors responses link to, ahead of the client-rendered reference.
    // Both of Scalar's script tags (its bundle and its start-up call) carry this answer's CSP nonce.
    const page = (await c.res.text())
      .replace('<div id="app"></div>', `${notesHtml()}<div id="app"></div>`)
      .replaceAll("<script", `<script nonce="${c.get("cspNonce")}"`);
    c.res = c.html(page);
    c.header("Cache-Control", "no-cache");
  }, reference);

  // The guides of docs/, rendered to HTML at build time (scripts/build-guides.mjs): no Markdown library in the Worker.
  docs.get("/guides", (c) => {
    c.header("Cache-Control", "no-cache");
    const list = GUIDES.map((g) => `<li><a href="/docs/guides/${g.slug}">${escape(g.title)}</a></li>`).join("");
    return c.html(guidePage("Guides", `<h1>Guides</h1><p>How the service behaves, beside <a href="/docs">the API reference</a>.</p><ul>${list}</ul>`));
  });
  docs.get("/guides/:slug", (c) => {
    const guide = GUIDES.find((g) => g.slug === c.req.param("slug"));
    if (!guide) throw new Refusal("not_found", "No guide has that name; /docs/guides lists them.");
    c.header("Cache-Control", "no-cache");
    return c.html(guidePage(guide.title, guide.html, guide));
  });

  // The guides' images (docs/portal/*.png): static assets (assets/guides/, links made by
  // `npm run guides:build`), not in the bundle. Only an image a guide shows is served; the name is
  // not content-hashed (the browser tests refresh the screenshots), so a day's cache and the ETag.
  docs.get("/guides/:folder{[a-z0-9-]+}/:file{[a-z0-9-]+\\.png}", async (c) => {
    const image = `${c.req.param("folder")}/${c.req.param("file")}`;
    const missing = () => new Refusal("not_found", "No guide shows an image of that name.");
    if (!GUIDE_IMAGES.includes(image) || !c.env.ASSETS) throw missing();
    const asset = await c.env.ASSETS.fetch(new URL(`/guides/${image}`, c.req.url));
    if (!asset.ok) throw missing();
    const headers = new Headers({ "Content-Type": "image/png", "Cache-Control": "public, max-age=86400", "X-Content-Type-Options": "nosniff" });
    const etag = asset.headers.get("ETag");
    if (etag) headers.set("ETag", etag);
    return new Response(asset.body, { status: 200, headers });
  });

  // The plain name stays for anything that linked it; the page itself names the hashed one.
  docs.get("/scalar.js", (c) => serveScript(c.env.ASSETS, c.req.url, c.req.header("Accept-Encoding"), "public, max-age=3600"));
  docs.get("/:file{scalar\\.[0-9a-f]+\\.js}", async (c) => {
    // An old hash (a page from before a release) is a 404: the page is no-cache, so a reload names the new one.
    const hash = await scriptHash(c.env.ASSETS, c.req.url);
    if (!hash || c.req.param("file") !== `scalar.${hash}.js`) throw new Refusal("not_found", "No script of the reference has that name; /docs names the current one.");
    return serveScript(c.env.ASSETS, c.req.url, c.req.header("Accept-Encoding"), IMMUTABLE);
  });
  return docs;
}

/** The script from the static assets, compressed when the request accepts it. A missing asset is a 404, never a 500. */
async function serveScript(assets: Fetcher | undefined, url: string, acceptEncoding: string | undefined, cacheControl: string) {
  const missing = () => new Refusal("not_found", "The reference's script is not deployed with this Worker.");
  if (!assets) throw missing();
  const asset = await assets.fetch(new URL(ASSET, url));
  if (!asset.ok) throw missing();
  const headers = new Headers({ "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": cacheControl, Vary: "Accept-Encoding" });
  const etag = asset.headers.get("ETag");
  if (etag) headers.set("ETag", etag);
  const encoding = scriptEncoding(acceptEncoding);
  if (encoding) headers.set("Content-Encoding", encoding);
  return new Response(asset.body, { status: 200, headers });
}

const escape = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const GUIDE_CSS = `body{margin:0;font:16px/1.6 system-ui,sans-serif;color:#1b1b1b;display:flex;min-height:100vh}
nav{flex:0 0 15rem;padding:1rem;border-right:1px solid #ddd;background:#fafafa}nav ul{list-style:none;padding:0}nav li{margin:.3rem 0}
nav a[aria-current]{font-weight:700}main{flex:1;min-width:0;padding:1rem 2rem;max-width:60rem}
pre{overflow-x:auto;background:#f4f4f4;padding:.75rem}code{font-size:.9em}table{border-collapse:collapse;display:block;overflow-x:auto}
td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top}.anchor{margin-right:.3rem;color:#999;text-decoration:none}
.repo-path{border-bottom:1px dotted #999}img{max-width:100%;height:auto;border:1px solid #ddd}a{color:#0b57d0}
@media (max-width:50rem){body{display:block}nav{border-right:0;border-bottom:1px solid #ddd}}`;

/** A guide in the reference's frame: the guides in a sidebar, the API reference one link away. */
function guidePage(title: string, body: string, current?: Guide) {
  const links = GUIDES.map(
    (g) => `<li><a href="/docs/guides/${g.slug}"${g === current ? ' aria-current="page"' : ""}>${escape(g.title)}</a></li>`,
  ).join("");
  const source = current ? `<p><small>From <code>${escape(current.file)}</code> in the repository.</small></p>` : "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(title)} · Referral Funding Service</title><style>${GUIDE_CSS}</style></head>
<body><nav aria-label="Guides"><p><a href="/docs">API reference</a></p><p><a href="/docs/guides"><strong>Guides</strong></a></p><ul>${links}</ul></nav>
<main>${body}${source}</main></body></html>`;
}
