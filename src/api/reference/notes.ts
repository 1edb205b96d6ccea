import { API_CATALOGUE } from "../../lib/refusal-status";
import { GUIDES } from "./guides.generated";

/**
 * The parts of the reference that responses link to by anchor, rendered on
 * the server so the anchors exist before (and without) the reference's
 * script: `/docs#error-<code>` (every problem's `type`) and
 * `/docs#deal-deprecated-fields` (the `Link` beside the lender API's
 * `Deprecation` header). A closed `<details>` opens itself when an anchor inside it is the target.
 */

const escape = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The fields GET /v1/deals/{ref} still carries beside `market`, and what replaces each. */
export const DEPRECATED_DEAL_FIELDS = [
  ["monthly_revenue", "market.monthly_revenue"],
  ["annual_turnover", "market.annual_turnover"],
  ["market_block", "market"],
  ["market_region", "market.region (US and Canada)"],
] as const;

function errorCatalogue() {
  const rows = Object.entries(API_CATALOGUE)
    .map(([code, { status, title }]) => `<tr id="error-${code}"><td><code>${code}</code></td><td>${status}</td><td>${escape(title)}</td></tr>`)
    .join("");
  return `<details><summary>Error codes</summary><div id="errors">
<p>Every failure is <code>application/problem+json</code>; branch on <code>error.code</code>. Its <code>type</code> links to the row below.</p>
<div class="rfs-table"><table><thead><tr><th>error.code</th><th>status</th><th>title</th></tr></thead><tbody>${rows}</tbody></table></div></div></details>`;
}

function deprecations() {
  const rows = DEPRECATED_DEAL_FIELDS.map(([field, use]) => `<li><code>${field}</code>: read <code>${escape(use)}</code></li>`).join("");
  return `<details><summary>Deprecated deal fields</summary><div id="deal-deprecated-fields">
<p>Since the 2026-09 release (<code>Deprecation: @1788220800</code>, 2026-09-01) the full deal of the lender API
(<code>GET /v1/deals/{ref}</code> and <code>full</code> webhook payloads) carries its market facts in <code>market</code>
(discriminated by <code>market.country</code>). The top-level duplicates stay for one more release:</p><ul>${rows}</ul></div></details>`;
}

export const NOTES_CSS = `.rfs-notes{font:14px/1.5 system-ui,sans-serif;padding:.5rem 1rem;border-bottom:1px solid #ddd;display:flex;flex-wrap:wrap;gap:.25rem 1.5rem}
.rfs-notes details{max-width:100%}.rfs-guides{margin:0;flex-basis:100%}.rfs-notes summary{cursor:pointer;font-weight:600}
.rfs-table{overflow-x:auto;max-width:100%}.rfs-notes table{border-collapse:collapse}.rfs-notes td,.rfs-notes th{border-bottom:1px solid #ddd;padding:.2rem .5rem;text-align:left}`;

function guides() {
  const links = GUIDES.map((g) => `<a href="/docs/guides/${g.slug}">${escape(g.title)}</a>`).join(" · ");
  return `<p class="rfs-guides"><a href="/docs/guides"><strong>Guides</strong></a>: ${links}</p>`;
}

export const notesHtml = () => `<nav class="rfs-notes" aria-label="Reference notes">${guides()}${errorCatalogue()}${deprecations()}</nav>`;
