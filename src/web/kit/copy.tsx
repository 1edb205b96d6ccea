/**
 * The one copy control of the portal: every id, reference, link or secret a person
 * copies (a key's client id, a signing secret, the client's hub link, an `RF-`/`DL-` reference, a
 * webhook endpoint's id) is drawn by `Copyable` and nothing else.
 *
 * - Without JavaScript it is a read-only text field holding the value: a person selects it (one tap
 *   selects the word, the field keeps it on one line) and copies it with the system's own menu.
 * - With the forms script (portal/forms-asset.ts, `data-copy`) a "Copy" button appears only where the
 *   clipboard can be written; a click copies the field's value and "Copied" is announced in the
 *   control's own live region (`role="status"`), so a screen reader hears it and everyone sees it.
 *
 * `anchor` makes the field's id unique on the page; `what` names the value for the field and the button
 * ("the client id", "the reference").
 */
export const Copyable = (props: { value: string; anchor: string; what?: string; secret?: boolean }) => {
  const id = `copy-${props.anchor.replace(/[^A-Za-z0-9_-]/g, "-")}`;
  const what = props.what ?? "the id";
  const named = `${what.charAt(0).toUpperCase()}${what.slice(1)}`;
  return (
    <span class={props.secret ? "copyable copy-secret" : "copyable"}>
      <input
        id={id}
        class="copy-field"
        type="text"
        readonly
        value={props.value}
        size={Math.max(8, Math.min(props.value.length + 1, 44))}
        aria-label={props.value.length > 40 ? named : `${named} ${props.value}`}
        spellcheck={false}
        autocomplete="off"
        data-secret={props.secret ? "" : undefined}
      />
      <button type="button" class="copy-button" data-copy={id} aria-label={`Copy ${what}${props.value.length > 40 ? "" : ` ${props.value}`}`} hidden>
        Copy
      </button>
      <span class="copy-status" role="status" aria-live="polite" data-copy-status={id}></span>
    </span>
  );
};

/** The copy control's look: a field that reads as text, never wider than its column or the phone's screen. */
export const COPY_STYLE = `.copyable{display:inline-flex;flex-wrap:wrap;align-items:center;gap:.3rem .4rem;max-width:100%;vertical-align:middle}
input.copy-field{font-family:ui-monospace,monospace;font-size:.9rem;width:auto;max-width:100%;min-width:0;padding:.2rem .35rem;border:1px solid #c9cde0;border-radius:.2rem;background:#f6f7fb;color:#1d2230}
.copy-secret input.copy-field{background:#fff8e1;border-color:#f9a825;width:100%}
.copyable button.copy-button{margin:0;padding:.25rem .7rem;min-height:2.25rem}.copy-status{font-size:.85rem;color:#2e7d32;font-weight:600}`;
