/**
 * An id or secret a person copies (a key's client id, a signing secret, a link, a reference):
 * shown in a `<code>` with a "Copy" button. The button uses the forms script's `data-copy`
 * behaviour (portal/forms-asset.ts): hidden until the clipboard is writable, it copies the text
 * of the element it names. `anchor` makes the element's id unique on the page.
 */
export const Copyable = (props: { value: string; anchor: string; what?: string; class?: string }) => {
  const id = `copy-${props.anchor.replace(/[^A-Za-z0-9_-]/g, "-")}`;
  return (
    <>
      <code id={id} class={props.class} style="word-break:break-all">
        {props.value}
      </code>{" "}
      <button type="button" data-copy={id} aria-label={`Copy ${props.what ?? "the id"} ${props.value.length > 40 ? "" : props.value}`.trim()} hidden>
        Copy
      </button>
    </>
  );
};
