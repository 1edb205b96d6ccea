/**
 * The application pages' shell (Hono JSX: every value is escaped). No script, no external asset:
 * inline style only, which the CSP allows and nothing else. Phone first (320 px up): one column, 16 px
 * inputs 44 px high, long words wrap. Errors follow the GOV.UK pattern: a summary at the top linking
 * each field, and the message beside the field.
 */
import type { Child } from "hono/jsx";
import { raw } from "hono/html";
import type { StepField } from "./fields";
import { fill, type ApplyLocale, type ApplyWords } from "./messages";
import { HtmlPage } from "../kit/document";

const STYLE = `*,*::before,*::after{box-sizing:border-box}
body{font-family:system-ui,sans-serif;max-width:40rem;margin:0 auto;padding:1rem;color:#1d2230;line-height:1.5;overflow-wrap:anywhere}
h1{font-size:1.5rem;margin-top:.5rem}h2{font-size:1.15rem;margin-top:1.6rem}
a{color:#1a4fb8}a:focus,button:focus,input:focus,select:focus{outline:3px solid #ffbf47;outline-offset:0}
.progress{color:#596070;margin:0}
label{display:block;font-weight:600;margin:1rem 0 .25rem}.hint{display:block;color:#596070;margin:0 0 .3rem}
input[type=text],input[type=email],input[type=tel],input[type=date],select{width:100%;padding:.5rem;font-size:max(1rem,16px);min-height:2.75rem;border:2px solid #596070;border-radius:0}
input[type=file]{max-width:100%;font-size:max(1rem,16px);min-height:2.75rem}
.check label{display:flex;gap:.7rem;align-items:flex-start;font-weight:400;min-height:2.75rem}.check input{width:1.5rem;height:1.5rem;flex:none;margin-top:.1rem}
.field-error{display:block;color:#b71c1c;font-weight:600}[aria-invalid=true]{border:2px solid #b71c1c}
.error-summary{border:4px solid #b71c1c;padding:.8rem 1rem;margin:1rem 0}.error-summary h2{margin-top:0}
.notice{background:#e8f5e9;border:1px solid #2e7d32;padding:.6rem .8rem}
button,.button{display:inline-block;margin:1.2rem .6rem 0 0;padding:.6rem 1.1rem;font-size:1rem;min-height:2.75rem;background:#2e7d32;color:#fff;border:0;text-decoration:none;cursor:pointer}
button.secondary{background:#e8e9ee;color:#1d2230}
.locked{background:#f6f7fb;border:1px solid #c9cde0;padding:.5rem .7rem}
dl{margin:0}dt{font-weight:600}dd{margin:0 0 .6rem}
.card{border:1px solid #c9cde0;padding:.7rem .9rem;margin:0 0 .8rem}
.consent-text{border-left:4px solid #1a4fb8;padding:.1rem .9rem}
.skip{position:absolute;left:-999rem}.skip:focus{left:.5rem;top:.5rem;background:#fff;padding:.5rem}`;

/** A sentence of the words table with the introducer's `{name}` isolated in a `<bdi>` (a right-to-left name stays whole). */
export function Say(props: { text: string; name?: string; values?: Record<string, string | number> }) {
  const parts = fill(props.text, props.values ?? {}).split("{name}");
  return (
    <>
      {parts.map((part, i) => (
        <>
          {part}
          {i < parts.length - 1 ? <bdi>{props.name}</bdi> : null}
        </>
      ))}
    </>
  );
}

export function ApplyPage(props: { l: ApplyLocale; title: string; children?: Child; progress?: string }) {
  const { t } = props.l;
  return (
    <HtmlPage title={`${props.title} · ${t.yourApplication}`} lang={props.l.locale} head={<style>{raw(STYLE)}</style>}>
      <a class="skip" href="#main">
        {t.skip}
      </a>
      <main id="main">
        {props.progress ? <p class="progress">{props.progress}</p> : null}
        <h1>{props.title}</h1>
        {props.children}
      </main>
    </HtmlPage>
  );
}

/** Problems of a posted step: the message per input, and the order to list them in. */
export interface StepProblems {
  byInput: Record<string, string>;
  /** Shown above the list when a problem names no input. */
  summary: string;
}

export const inputId = (name: string) => `f-${name.replace(/[^A-Za-z0-9_-]/g, "-")}`;

/** GOV.UK's error summary: first on the page, focused, each problem a link to its field. */
export function ErrorSummary(props: { t: ApplyWords; problems: StepProblems | null; labels: Record<string, string> }) {
  const { problems } = props;
  if (!problems) return null;
  const entries = Object.entries(problems.byInput);
  return (
    <div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex={-1}>
      <h2 id="error-summary-title">{props.t.problem}</h2>
      {entries.length === 0 ? <p>{problems.summary}</p> : null}
      <ul>
        {entries.map(([name, message]) => (
          <li>
            <a href={`#${inputId(name)}`}>{props.labels[name] ? `${props.labels[name]}: ${message}` : message}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** One input, its hint and its error beside it; a locked one is shown as text the business cannot change. */
export function StepInput(props: { t: ApplyWords; field: StepField; value: string; error?: string; locked?: boolean; lockedBy?: string; focus?: boolean }) {
  const { t, field, value, error } = props;
  const id = inputId(field.name);
  if (props.locked) {
    const shown = field.options?.find((o) => o.value === value)?.label ?? value;
    return (
      <div>
        <label for={id}>{field.label}</label>
        <span class="hint" id={`${id}-hint`}>
          <Say text={t.filledBy} name={props.lockedBy} />
        </span>
        <p class="locked" id={id} aria-describedby={`${id}-hint`}>
          {shown || "—"}
        </p>
      </div>
    );
  }
  const described = [field.hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  const common = { id, name: field.name, "aria-describedby": described, "aria-invalid": error ? "true" : undefined, autofocus: props.focus || undefined };
  return (
    <div>
      <label for={id}>{field.label}</label>
      {field.hint ? (
        <span class="hint" id={`${id}-hint`}>
          {field.hint}
        </span>
      ) : null}
      {error ? (
        <span class="field-error" id={`${id}-error`}>
          <span class="skip">{t.errorPrefix}</span>
          {error}
        </span>
      ) : null}
      {field.kind === "select" ? (
        <select {...common}>
          <option value="">{t.chooseOne}</option>
          {(field.options ?? []).map((o) => (
            <option value={o.value} selected={o.value === value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          type={field.kind === "email" ? "email" : field.kind === "tel" ? "tel" : "text"}
          inputmode={field.kind === "number" ? "decimal" : undefined}
          autocomplete={field.autocomplete ?? "off"}
          spellcheck={field.kind === "text" ? undefined : false}
          {...common}
          value={value}
        />
      )}
    </div>
  );
}

/** The one page every link that does not work shows: guessed, used, expired, revoked or on the wrong host. */
export function DeadLinkPage(props: { l: ApplyLocale; returnUrl: string | null }) {
  const { t } = props.l;
  return (
    <ApplyPage l={props.l} title={t.deadTitle}>
      <p>{t.deadText}</p>
      <p>
        <strong>{t.deadAsk}</strong>
      </p>
      {props.returnUrl ? (
        <p>
          <a href={props.returnUrl}>{t.deadBack}</a>
        </p>
      ) : null}
    </ApplyPage>
  );
}
