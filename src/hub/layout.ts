/**
 * The hub's page shell. Every value goes through hono's `html` template, which
 * escapes interpolations, so names and notes typed by anyone render as text.
 * No external assets and no script: inline style only (the CSP allows nothing else).
 */
import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";

export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

const STYLE = `body{font-family:system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1d2230;line-height:1.45}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #dde;padding:.35rem .5rem;text-align:left;vertical-align:top}
.notice{background:#e8f5e9;border:1px solid #7cb87f;padding:.6rem .8rem}.error{background:#fdecea;border:1px solid #e57373;padding:.6rem .8rem}
label{display:block;margin:.6rem 0 .2rem}input[type=text],textarea{width:100%;max-width:32rem;padding:.35rem}
button{margin-top:.8rem;padding:.45rem 1rem}.muted{color:#667}nav a{margin-right:1rem}`;

export interface Feedback {
  /** Shown in a green box after a successful action. */
  notice?: string | null;
  /** A refused form: the message names the field. */
  error?: { message: string; field: string | null } | null;
}

export function feedback(f: Feedback) {
  return html`${f.notice ? html`<p class="notice" role="status">${f.notice}</p>` : ""}${
    f.error ? html`<p class="error" role="alert" data-field="${f.error.field ?? ""}">${f.error.message}</p>` : ""
  }`;
}

export function layout(title: string, hubBase: string, content: Html) {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">
<title>${title}</title><style>${raw(STYLE)}</style></head>
<body><nav><a href="${hubBase}">Overview</a></nav><main>${content}</main></body></html>`;
}

export const when = (iso: string | null) => (iso ? iso.replace("T", " ").replace(/\.\d+Z$/, " UTC") : "");

export function notFoundPage() {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><h1>Not found</h1><p>This link is not valid. Ask for a new link.</p></body></html>`;
}
