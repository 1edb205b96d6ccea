/**
 * The hub's page shell, in the kit's dialect (Hono JSX, as the portal and the application link): every
 * value is escaped, so names and notes typed by anyone render as text. No external assets and no
 * script: inline style only (the CSP allows nothing else).
 */
import type { Child } from "hono/jsx";
import { raw } from "hono/html";
import type { LocalForm } from "../../domain/hub/local-form";
import { sizeInWords } from "../kit/format";
import { COPY_STYLE } from "../kit/copy";
import { TABLE_STYLE } from "../kit/table";
import { HtmlPage } from "../kit/document";
import { CONFIRM_STYLE } from "../kit/confirm";

/**
 * Phone first: no wide tables; lists of records are cards holding a definition
 * list, which is a two-column grid from 36rem up and stacked below it, or the kit's
 * table, which is a card per row below 600 px. Long words (references, file
 * names) wrap rather than widen the page.
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
[aria-invalid=true]{border:2px solid #b71c1c;outline-color:#b71c1c}.field-error{display:block;color:#b71c1c;font-weight:600}.error-title{font-weight:600;margin:0 0 .3rem}.error ul{margin:0;padding-left:1.2rem}.required-mark{color:#596070;font-weight:400}
button{margin-top:.8rem;padding:.55rem 1rem;font-size:1rem;min-height:2.75rem}.muted{color:#596070}nav a{margin-right:1rem}
a{color:#1a4fb8}.status{font-weight:600}.todo{border:2px solid #1a4fb8}.todo h2{margin-top:0}.todo ul{margin:0;padding-left:1.2rem}.todo li{margin:.3rem 0}
${COPY_STYLE}
${CONFIRM_STYLE}
${TABLE_STYLE}`;


export interface Feedback {
  /** Shown in a green box after a successful action. */
  notice?: string | null;
  /** A refused form: the first problem's message and field, and every problem (`problems`) when there are several. */
  error?: { message: string; field: string | null; problems?: readonly { field: string | null; message: string }[] } | null;
}

/** Every problem of a refused form, in order (one when the refusal lists none). */
const problemsOf = (f: Feedback) => (f.error ? (f.error.problems?.length ? f.error.problems : [{ field: f.error.field, message: f.error.message }]) : []);

const problemFor = (f: Feedback, name: string) => problemsOf(f).find((p) => p.field === name) ?? null;

/**
 * The outcome above the page's content: a notice, or the error summary (GOV.UK's pattern) listing every
 * problem of a refused form, each a link to its input when `inputs` (the ids of the page's inputs) has it,
 * so a person reaches the field from the summary; the message is beside the field too (`FieldError`).
 */
export const FeedbackLines = (props: { f: Feedback; inputs?: readonly string[] }) => {
  const problems = problemsOf(props.f);
  const inputs = props.inputs ?? [];
  return (
    <>
      {props.f.notice ? (
        <p class="notice" role="status">
          {props.f.notice}
        </p>
      ) : null}
      {problems.length > 0 ? (
        <div class="error" role="alert" id="form-error" data-field={problems[0]!.field ?? ""}>
          <p class="error-title">{problems.length > 1 ? `There are ${problems.length} problems` : "There is a problem"}</p>
          <ul>
            {problems.map((p) => (
              <li data-field={p.field ?? ""}>{p.field && inputs.includes(p.field) ? <a href={`#${p.field}`}>{p.message}</a> : p.message}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
};

/** The mark beside the label of a field the form cannot go without. */
export const RequiredMark = () => <span class="required-mark"> (required)</span>;

/**
 * The attributes of an input a refusal names: marked invalid (a red border) and tied to its message beside
 * it (`FieldError`); the form's first refused input is given the focus, so the person lands where the fix goes.
 */
export function invalidIf(f: Feedback, name: string, describedBy?: string): Record<string, string | boolean> {
  if (!problemFor(f, name)) return describedBy ? { "aria-describedby": describedBy } : {};
  const first = problemsOf(f).find((p) => p.field !== null)?.field === name;
  return { "aria-invalid": "true", "aria-describedby": describedBy ? `${describedBy} ${name}-error` : `${name}-error`, ...(first ? { autofocus: true } : {}) };
}

/** The message beside an input a refusal names (its id is what `invalidIf` ties the input to). */
export const FieldError = (props: { f: Feedback; name: string }) => {
  const problem = problemFor(props.f, props.name);
  return problem ? (
    <span class="field-error" id={`${props.name}-error`}>
      {problem.message}
    </span>
  ) : null;
};

/** A page of the hub: its navigation back to the overview, and the closed application's notice when it is read only. */
export function HubPage(props: { title: string; base: string; readOnly?: boolean; children?: Child }) {
  return (
    <HtmlPage title={props.title} head={<style>{raw(STYLE)}</style>}>
      <nav aria-label="Hub">
        <a href={props.base}>Overview</a>
      </nav>
      <main>
        {props.readOnly ? (
          <p class="notice" id="read-only" role="status">
            This application is closed: you can read everything here, but nothing can be sent or changed any more.
          </p>
        ) : null}
        {props.children}
      </main>
    </HtmlPage>
  );
}

/** What every page is rendered with: the link's base path and the business's local form of times and amounts. */
export interface HubView {
  base: string;
  local: LocalForm;
  /** The lead is funded, declined or out of scope: pages show what happened, forms are gone and posts are refused. */
  readOnly?: boolean;
}

/** A page outside any lead's hub (the link did not open one, or the answer is about the request itself). */
const PlainPage = (props: { title: string; head?: Child; children?: Child }) => (
  <HtmlPage title={props.title} head={props.head}>
    <h1>{props.title}</h1>
    {props.children}
  </HtmlPage>
);

/** A genuine link whose 30 days are over (410). */
export const expiredPage = () => (
  <PlainPage title="Link expired">
    <p>This link has expired. Ask the adviser who sent it to you for a new link.</p>
  </PlainPage>
);

/** The hub of a funded, declined or out-of-scope lead takes no more changes (409). */
export const readOnlyPage = (base: string) => (
  <PlainPage title="Nothing more to do here">
    <p>
      This application is closed, so nothing can be changed any more. You can still <a href={base}>read its hub</a>.
    </p>
  </PlainPage>
);

/**
 * A post over its form's limit (413), in the hub's layout: the form's real limit in words and what
 * to do. A file upload is told how to make the files smaller; a text form, to shorten what was typed.
 * `back` is the page of an upload's form (its request page).
 */
export function tooLargePage(base: string, back: string, limit: { bytes: number; files: boolean }) {
  const size = sizeInWords(limit.bytes);
  return (
    <HubPage title="Too large" base={base}>
      {limit.files ? (
        <>
          <h1>Your files are too large</h1>
          <p class="error" role="alert">
            This upload takes at most {size} in all (every file of one upload together), and what you sent was larger. Nothing was uploaded.
          </p>
          <h2>What to do</h2>
          <ul>
            <li>Make the file smaller: a photo taken at a lower resolution, or a scan in black and white, is a fraction of the size.</li>
            <li>Send a PDF instead of photos: a scanning app (or Notes on an iPhone, Google Drive on Android) makes one small PDF of several pages.</li>
            <li>Send the files in several uploads, a few at a time.</li>
          </ul>
          <p>
            <a href={back}>Back to the upload</a>
          </p>
        </>
      ) : (
        <>
          <h1>What you sent is too large</h1>
          <p class="error" role="alert">
            This form takes at most {size}, and what you sent was larger. Nothing was sent.
          </p>
          <p>Shorten what you typed and send it again.</p>
          <p>
            <a href={base}>Back to your hub</a>
          </p>
        </>
      )}
    </HubPage>
  );
}

/** Too many requests from this address or on this link (429), or the service too busy (503): when to try again, as `Retry-After` says. */
export const tooManyPage = (wait: string) => (
  <PlainPage title="Too many requests">
    <p>Too many requests in a short time. Wait {wait}, then reload the page.</p>
  </PlainPage>
);

/** A refusal outside a form, in words (its status is the refusal's). */
export const refusedPage = (message: string) => (
  <PlainPage title="Not possible">
    <p>{message}</p>
  </PlainPage>
);

/** A post from another site (403): the hub's forms are sent from its own pages only. */
export const crossSitePage = () => (
  <PlainPage title="Refused">
    <p>This form must be sent from the hub page itself.</p>
  </PlainPage>
);

/** Our failure: the request id to quote, and for a post that it may have been saved before the failure. */
export const failedPage = (requestId: string, maybeSaved: boolean) => (
  <PlainPage title="Something went wrong">
    <p>
      Something went wrong on our side.{maybeSaved ? " What you sent may have been saved: reload your hub to check before sending it again." : " Reload the page in a moment."}
    </p>
    <p>
      If it keeps happening, tell your adviser this reference: <code>{requestId}</code>.
    </p>
  </PlainPage>
);

/**
 * The answer to a link followed from another site: the cookie is set, and this
 * page moves on to the token-free address by itself (our own navigation, so the
 * SameSite=Strict cookie goes with it).
 */
export const openingPage = (target: string) => (
  <PlainPage title="Opening your hub" head={<meta http-equiv="refresh" content={`0;url=${target}`} />}>
    <p>
      <a href={target}>Continue to your hub</a>
    </p>
  </PlainPage>
);

/** A link that opens nothing (a wrong token, an unknown lead): the same plain page, so nothing says whether a lead exists. */
export const notFoundPage = () => (
  <PlainPage title="Not found">
    <p>This link is not valid. Ask for a new link.</p>
  </PlainPage>
);
