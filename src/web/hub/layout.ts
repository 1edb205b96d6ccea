/**
 * The hub's page shell. Every value goes through hono's `html` template, which
 * escapes interpolations, so names and notes typed by anyone render as text.
 * No external assets and no script: inline style only (the CSP allows nothing else).
 */
import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import type { LocalForm } from "../../domain/hub/local-form";
import { sizeInWords } from "../kit/format";

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/**
 * Phone first: no wide tables; lists of records are cards holding a definition
 * list, which is a two-column grid from 36rem up and stacked below it. Long
 * words (references, file names) wrap rather than widen the page.
 */
const STYLE = `*,*::before,*::after{box-sizing:border-box}
body{font-family:system-ui,sans-serif;max-width:52rem;margin:1.5rem auto;padding:0 1rem;color:#1d2230;line-height:1.45;overflow-wrap:anywhere}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem}h3{font-size:1rem;margin:0 0 .4rem}
.cards{list-style:none;padding:0;margin:0}.cards>li,.card{border:1px solid #c9cde0;border-radius:.4rem;padding:.7rem .9rem;margin:0 0 .8rem}
dl{margin:0}dt{font-weight:600;color:#3d4354}dd{margin:0 0 .4rem}
@media (min-width:36rem){.cards dl{display:grid;grid-template-columns:11rem 1fr;column-gap:1rem}.cards dd{margin:0 0 .25rem}}
.notice{background:#e8f5e9;border:1px solid #2e7d32;padding:.6rem .8rem}.error{background:#fdecea;border:1px solid #b71c1c;padding:.6rem .8rem}
label{display:block;margin:.6rem 0 .2rem}input[type=text],input[type=email],input[type=tel],textarea,select{width:100%;max-width:32rem;padding:.5rem;font-size:max(1rem,16px);min-height:2.75rem}
input[type=file]{max-width:100%;font-size:max(1rem,16px);min-height:2.75rem}label:has(>input[type=checkbox]),label:has(>input[type=radio]){display:flex;gap:.6rem;align-items:center;min-height:2.75rem}input[type=checkbox],input[type=radio]{width:1.4rem;height:1.4rem;flex:none}
[aria-invalid=true]{border:2px solid #b71c1c;outline-color:#b71c1c}.required-mark{color:#596070;font-weight:400}
button{margin-top:.8rem;padding:.55rem 1rem;font-size:1rem;min-height:2.75rem}.muted{color:#596070}nav a{margin-right:1rem}
a{color:#1a4fb8}.status{font-weight:600}.todo{border:2px solid #1a4fb8}.todo h2{margin-top:0}.todo ul{margin:0;padding-left:1.2rem}.todo li{margin:.3rem 0}`;

export interface Feedback {
  /** Shown in a green box after a successful action. */
  notice?: string | null;
  /** A refused form: the message names the field. */
  error?: { message: string; field: string | null } | null;
}

export function feedback(f: Feedback) {
  return html`${f.notice ? html`<p class="notice" role="status">${f.notice}</p>` : ""}${
    f.error ? html`<p class="error" role="alert" data-field="${f.error.field ?? ""}"><span id="form-error">${f.error.message}</span></p>` : ""
  }`;
}

/**
 * The attributes of an input a refusal names: marked invalid (a red border), tied to the
 * message above the form and given the focus, so the person lands where the fix goes.
 */
/** The mark beside the label of a field the form cannot go without. */
export const requiredMark = raw('<span class="required-mark"> (required)</span>');

export function invalidIf(f: Feedback, name: string) {
  return f.error?.field === name ? raw(' aria-invalid="true" aria-describedby="form-error" autofocus') : "";
}

export function layout(title: string, hubBase: string, content: Html, readOnly = false) {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">
<title>${title}</title><style>${raw(STYLE)}</style></head>
<body><nav aria-label="Hub"><a href="${hubBase}">Overview</a></nav><main>${
    readOnly ? html`<p class="notice" id="read-only" role="status">This application is closed: you can read everything here, but nothing can be sent or changed any more.</p>` : ""
  }${content}</main></body></html>`;
}

/** What every page is rendered with: the link's base path and the business's local form of times and amounts. */
export interface HubView {
  base: string;
  local: LocalForm;
  /** The lead is funded, declined or out of scope: pages show what happened, forms are gone and posts are refused. */
  readOnly?: boolean;
}

const plainPage = (title: string, body: Html, head: Html | string = "") => html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">${head}<title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

/** A genuine link whose 30 days are over (410). */
export const expiredPage = () => plainPage("Link expired", html`<p>This link has expired. Ask the adviser who sent it to you for a new link.</p>`);

/** The hub of a funded, declined or out-of-scope lead takes no more changes (409). */
export const readOnlyPage = (base: string) =>
  plainPage("Nothing more to do here", html`<p>This application is closed, so nothing can be changed any more. You can still <a href="${base}">read its hub</a>.</p>`);

/**
 * A post over its form's limit (413), in the hub's layout: the form's real limit in words and what
 * to do. A file upload is told how to make the files smaller; a text form, to shorten what was typed.
 * `back` is the page of an upload's form (its request page).
 */
export function tooLargePage(base: string, back: string, limit: { bytes: number; files: boolean }) {
  const size = sizeInWords(limit.bytes);
  const content = limit.files
    ? html`<h1>Your files are too large</h1>
<p class="error" role="alert">This upload takes at most ${size} in all (every file of one upload together), and what you sent was larger. Nothing was uploaded.</p>
<h2>What to do</h2>
<ul><li>Make the file smaller: a photo taken at a lower resolution, or a scan in black and white, is a fraction of the size.</li>
<li>Send a PDF instead of photos: a scanning app (or Notes on an iPhone, Google Drive on Android) makes one small PDF of several pages.</li>
<li>Send the files in several uploads, a few at a time.</li></ul>
<p><a href="${back}">Back to the upload</a></p>`
    : html`<h1>What you sent is too large</h1>
<p class="error" role="alert">This form takes at most ${size}, and what you sent was larger. Nothing was sent.</p>
<p>Shorten what you typed and send it again.</p>
<p><a href="${base}">Back to your hub</a></p>`;
  return layout("Too large", base, content);
}

/** Too many requests from this address or on this link (429), or the service too busy (503): when to try again, as `Retry-After` says. */
export const tooManyPage = (wait: string) => plainPage("Too many requests", html`<p>Too many requests in a short time. Wait ${wait}, then reload the page.</p>`);

/** A refusal outside a form, in words (its status is the refusal's). */
export const refusedPage = (message: string) => plainPage("Not possible", html`<p>${message}</p>`);

/** Our failure: the request id to quote, and for a post that it may have been saved before the failure. */
export const failedPage = (requestId: string, maybeSaved: boolean) =>
  plainPage(
    "Something went wrong",
    html`<p>Something went wrong on our side.${maybeSaved ? " What you sent may have been saved: reload your hub to check before sending it again." : " Reload the page in a moment."}</p><p>If it keeps happening, tell your adviser this reference: <code>${requestId}</code>.</p>`,
  );

/**
 * The answer to a link followed from another site: the cookie is set, and this
 * page moves on to the token-free address by itself (our own navigation, so the
 * SameSite=Strict cookie goes with it).
 */
export const openingPage = (target: string) =>
  plainPage("Opening your hub", html`<p><a href="${target}">Continue to your hub</a></p>`, html`<meta http-equiv="refresh" content="0;url=${target}">`);

export function notFoundPage() {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not found</title></head><body><h1>Not found</h1><p>This link is not valid. Ask for a new link.</p></body></html>`;
}
