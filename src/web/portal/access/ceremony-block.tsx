/**
 * The button and status line a passkey ceremony runs from. The script
 * (passkeys.js) reads the data attributes; without script the <noscript>
 * says why nothing happens, and without WebAuthn the script says so.
 */
export const PasskeyCeremony = (props: { ceremony: "register" | "sign-in"; optionsUrl: string; verifyUrl: string; label: string }) => (
  <div data-passkey-ceremony={props.ceremony} data-options-url={props.optionsUrl} data-verify-url={props.verifyUrl}>
    <button type="button" data-passkey-start>
      {props.label}
    </button>
    <p data-passkey-status role="status" aria-live="polite" hidden></p>
    <noscript>
      <p class="error">Passkeys need JavaScript: turn it on for this site and reload the page.</p>
    </noscript>
  </div>
);
