/**
 * The one confirmation pattern for what cannot be undone (issue 23 item 7):
 * a confirm page. The action's button on its page is a link (`ConfirmStart`)
 * to a GET page that shows what will happen (`Confirm`: the question, the
 * facts under review, the consequence, the confirm button and a way back);
 * only that page holds the form that posts the action. It needs no script, so
 * it works the same with JavaScript off, on a phone and for a screen reader,
 * and a stray double click on the first button changes nothing.
 *
 * The route pattern, for an action posted to `P`:
 *   GET  P  → the page with `<Confirm action={P} …>` (404 when the thing is not the viewer's)
 *   POST P  → the action, then 303 to the section of the page that shows its outcome
 *
 * An action that must never happen unasked also checks `isConfirmed`: the
 * confirm form carries `confirmed=yes` (pass `CONFIRMED` among `hidden`), and a
 * POST without it (a stale page, a script) is sent to the question (303),
 * nothing done. The lender's waiver and test-deal deletion work this way.
 */
import type { Child } from "hono/jsx";

/** The classes this file uses; the portal's layout carries them in its one style sheet. */
export const CONFIRM_STYLE = `a.button{display:inline-block;padding:.45rem 1rem;border:1px solid #1d2230;border-radius:.2rem;background:#f4f5fa;color:#1d2230;text-decoration:none;margin-top:.8rem}
a.button.danger,button.danger{border-color:#b71c1c;color:#fff;background:#b71c1c}
.confirm{border:2px solid #1d2230;border-radius:.4rem;padding:.8rem 1rem;margin:1rem 0;max-width:40rem}.confirm h2{margin-top:0;overflow-wrap:anywhere}
.confirm dl{display:grid;grid-template-columns:minmax(7rem,max-content) 1fr;gap:.2rem 1rem;margin:.6rem 0}.confirm dt{font-weight:600}.confirm dd{margin:0;overflow-wrap:anywhere}
.confirm .actions{display:flex;flex-wrap:wrap;gap:.8rem 1.2rem;align-items:center}.confirm .actions button{margin-top:0}.confirm .warning{font-weight:600}`;

/** The field a confirmed post carries: spread into `hidden` of `Confirm`. */
export const CONFIRMED = { confirmed: "yes" } as const;
/** Whether a post came from the confirm page's own form (see `CONFIRMED`). */
export const isConfirmed = (fields: Readonly<Record<string, string>>) => fields.confirmed === CONFIRMED.confirmed;

/** The button on the page that leads to the confirm page (a link: following it changes nothing). */
export const ConfirmStart = (props: { href: string; label: string; danger?: boolean; describedBy?: string }) => (
  <a class={props.danger ? "button danger" : "button"} href={props.href} aria-describedby={props.describedBy}>
    {props.label}
  </a>
);

interface ConfirmProps {
  /** The question the page asks, e.g. "Accept Firm offer for £50,000.00 on Ada Ltd's behalf?" */
  question: string;
  /** What is being confirmed, as the person reads it (label, value). */
  facts?: readonly (readonly [string, string])[];
  /** What happens once confirmed (the consequence, in words). */
  consequence: string;
  /** Whether this is final ("This cannot be undone." is said). */
  irreversible?: boolean;
  /** Where the confirm form posts. */
  action: string;
  /** Hidden fields the action needs (the form token among them). */
  hidden: Readonly<Record<string, string>>;
  confirmLabel: string;
  /** Where "Cancel" goes: back to the page the person came from. */
  cancelHref: string;
  cancelLabel?: string;
  /** What the person should expect after confirming (issue 23 item 15). */
  next?: string;
  children?: Child;
  /** Inputs the confirmation itself takes (a decline's reasons, a funded amount): inside the one form, above its button. */
  fields?: Child;
}

/** The review and the one form that does the action. The heading takes the focus target so a skip link or reader lands on the question. */
export const Confirm = (props: ConfirmProps) => (
  <section class="confirm" aria-labelledby="confirm-question" id="confirm">
    <h2 id="confirm-question" tabindex={-1}>
      {props.question}
    </h2>
    {props.facts && props.facts.length > 0 ? (
      <dl>
        {props.facts.map(([label, value]) => (
          <>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </>
        ))}
      </dl>
    ) : null}
    {props.children}
    <p>{props.consequence}</p>
    {props.irreversible ? <p class="warning">This cannot be undone.</p> : null}
    {props.next ? <p class="muted">What happens next: {props.next}</p> : null}
    <form method="post" action={props.action}>
      {Object.entries(props.hidden).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      {props.fields}
      <div class="actions">
        <button type="submit" class={props.irreversible ? "danger" : undefined}>
          {props.confirmLabel}
        </button>
        <a href={props.cancelHref}>{props.cancelLabel ?? "Cancel, go back"}</a>
      </div>
    </form>
  </section>
);
