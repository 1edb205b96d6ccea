import { Hono, type MiddlewareHandler } from "hono";
import type { AppEnv } from "../../app-env";
import { Refusal } from "../../lib/refusal";
import { NOTES_CSS, notesHtml } from "./notes";

export interface ReferenceSource {
  title: string;
  slug: string;
  /** Where the OpenAPI 3.1 document is served. */
  url: string;
}

/** Scalar's standalone bundle, served from the Worker's static assets (wrangler.toml [assets]). */
export const SCRIPT_PATH = "/docs/scalar.js";
const ASSET = "/standalone.js";

/**
 * The API reference: Scalar rendering the OpenAPI documents the APIs serve,
 * with its script served by this Worker, so nothing loads from a CDN and the
 * reference cannot drift from the documents. Scalar's network features that
 * would call out (fonts, telemetry, its AI agent, MCP) are off.
 */
export function createDocsPage(sources: ReferenceSource[]) {
  const docs = new Hono<AppEnv>();
  // Scalar's page builder loads on the first visit to /docs, not when the Worker starts (issue 25).
  let scalar: MiddlewareHandler<AppEnv> | undefined;
  const reference: MiddlewareHandler<AppEnv> = async (c, next) => {
    scalar ??= (await import("@scalar/hono-api-reference")).Scalar(scalarOptions) as unknown as MiddlewareHandler<AppEnv>;
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
    const page = (await c.res.text()).replace('<div id="app"></div>', `${notesHtml()}<div id="app"></div>`);
    c.res = c.html(page);
    c.header("Cache-Control", "no-cache");
  }, reference);

  docs.get("/scalar.js", async (c) => {
    // A configuration gap (no assets directory) is a 404, never a 500.
    if (!c.env.ASSETS) throw new Refusal("not_found", "The reference's script is not deployed with this Worker.");
    const asset = await c.env.ASSETS.fetch(new URL(ASSET, c.req.url));
    if (!asset.ok) throw new Refusal("not_found", "The reference's script is not deployed with this Worker.");
    const res = new Response(asset.body, asset);
    res.headers.set("Content-Type", "text/javascript; charset=utf-8");
    res.headers.set("Cache-Control", "public, max-age=3600");
    return res;
  });
  return docs;
}
