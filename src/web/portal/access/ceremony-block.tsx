/**
 * The button and status line a passkey ceremony runs from. The script
 * (passkeys.js) reads the data attributes; without script the <noscript>
 * says why nothing happens, and without WebAuthn the script says so.
 */
export const PasskeyCeremony = (props: {
  ceremony: "register" | "sign-in";
  optionsUrl: string;
  verifyUrl: string;
  label: string;
  /** A signed-in page's form token: the script sends it as `X-Form-Token` (adding a passkey). */
  formToken?: string;
  /** What the status line says once the ceremony is done (default: signed in). */
  doneMessage?: string;
}) => (
  <div
    data-passkey-ceremony={props.ceremony}
    data-options-url={props.optionsUrl}
    data-verify-url={props.verifyUrl}
    data-form-token={props.formToken}
    data-done-message={props.doneMessage}
  >
    <button type="button" data-passkey-start>
      {props.label}
    </button>
    <p data-passkey-status role="status" aria-live="polite" hidden></p>
    <noscript>
      <p class="error">Passkeys need JavaScript: turn it on for this site and reload the page.</p>
    </noscript>
  </div>
);
