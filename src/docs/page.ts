import { Hono } from "hono";
import { html, raw } from "hono/html";
import type { AppEnv } from "../app-env";
import { ERROR_CODES } from "../lib/errors";
import type { Router } from "../router";

interface ApiDescription {
  title: string;
  base: string;
  api: Router;
}

type Operation = { summary?: string; description?: string; tags?: string[] };

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

const escape = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * A self-contained reference rendered from the same OpenAPI documents the
 * API serves, so it cannot drift from them and needs no CDN.
 */
export function createDocsPage(apis: ApiDescription[]) {
  const docs = new Hono<AppEnv>();
  docs.get("/", (c) => {
    const sections = apis.map(({ title, base, api }) => {
      const document = api.getOpenAPI31Document({ openapi: "3.1.0", info: { title, version: "1.0.0" } });
      const rows = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
        METHODS.filter((m) => (item as Record<string, unknown>)[m]).map((m) => {
          const op = (item as Record<string, Operation>)[m];
          return `<tr><td><code>${m.toUpperCase()}</code></td><td><code>${escape(base + path)}</code></td><td>${escape(op.summary ?? "")}<br><small>${escape(op.description ?? "")}</small></td></tr>`;
        }),
      );
      return `<h2>${escape(title)}</h2><p>OpenAPI 3.1: <a href="${base}/openapi.json">${base}/openapi.json</a></p><table>${rows.join("")}</table>`;
    });
    const errors = Object.entries(ERROR_CODES)
      .map(([code, { status, title }]) => `<tr id="error-${code}"><td><code>${code}</code></td><td>${status}</td><td>${escape(title)}</td></tr>`)
      .join("");
    return c.html(html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Referral Funding Service API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:1100px;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
table{border-collapse:collapse;width:100%;margin-bottom:2rem}td{border-bottom:1px solid #ddd;padding:.4rem;vertical-align:top}
code{background:#f4f4f4;padding:0 .25rem;border-radius:3px}small{color:#555}</style></head>
<body><h1>Referral Funding Service API</h1>
<p>Every error is <code>application/problem+json</code> with a stable <code>error.code</code> and an <code>X-Request-Id</code>.</p>
${raw(sections.join(""))}
<h2 id="errors">Error codes</h2><table>${raw(errors)}</table></body></html>`);
  });
  return docs;
}
