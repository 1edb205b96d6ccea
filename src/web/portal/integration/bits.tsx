/** Small pieces the key and webhook pages share. */
import { formatFor } from "../../kit/format";
import { Copyable } from "../../kit/copy";

/** A stored ISO timestamp in the kit's one form (`8 Dec 2026, 06:24 UTC`: keys and endpoints are the organisation's, of no one market), the exact value in `datetime`. */
export const When = (props: { at: string | null; never?: string }) =>
  props.at ? <time datetime={props.at}>{formatFor(null).time(props.at)}</time> : <span class="muted">{props.never ?? "never"}</span>;

/** A long identifier (client id, endpoint id, URL) that wraps rather than widening a phone's screen. */
export const Id = (props: { value: string }) => <code style="word-break:break-all">{props.value}</code>;

/**
 * A secret shown the one time it exists in clear: the page answering the
 * post that created it. It is never put in a URL, a cookie or a log, and the
 * page is `no-store` like every portal page, so Back or the history cannot
 * bring it back.
 */
export const SecretShownOnce = (props: { label: string; value: string; note: string }) => (
  <section aria-labelledby="secret-heading">
    <h2 id="secret-heading">{props.label}</h2>
    <p>
      <strong>Copy it now: it is shown only this once.</strong> {props.note}
    </p>
    <p>
      <Copyable value={props.value} anchor="secret-shown-once" what={props.label.toLowerCase()} secret />
    </p>
  </section>
);
