import { PORTAL_ROUTE } from "../context";
import { Document } from "../layout";
import { PasskeyCeremony } from "./ceremony-block";
import { PASSKEYS_SCRIPT_PATH } from "./passkeys-asset";

const SIGN_IN_NOTICES: Record<string, string> = {
  "signed-out": "You are signed out. Sign in again with your passkey when you need the portal.",
};

/**
 * Sign-in asks for no email: the browser offers the passkeys it holds for this site (discoverable credentials).
 * `next` is the page a deep link asked for (already checked by `landingOf`): the verify call carries it, so the person lands there.
 */
export const signInPage = (props: { next?: string; notice?: string | null } = {}) => {
  const landing = props.next && props.next !== PORTAL_ROUTE ? props.next : null;
  const notice = props.notice ? SIGN_IN_NOTICES[props.notice] : null;
  return (
  <Document title="Sign in" scripts={[PASSKEYS_SCRIPT_PATH]}>
    <main id="main" tabindex={-1}>
      <h1>Sign in to the portal</h1>
      {notice ? (
        <p class="notice" role="status">
          {notice}
        </p>
      ) : null}
      {landing ? <p>Sign in to open the page you asked for; you will land on it once signed in.</p> : null}
      <p>Use the passkey you made when you accepted your invitation. Your browser or phone will ask which one.</p>
      <PasskeyCeremony
        ceremony="sign-in"
        optionsUrl={`${PORTAL_ROUTE}/sign-in/options`}
        verifyUrl={landing ? `${PORTAL_ROUTE}/sign-in/verify?next=${encodeURIComponent(landing)}` : `${PORTAL_ROUTE}/sign-in/verify`}
        label="Sign in with a passkey"
      />
      <p class="muted">No passkey yet? Ask your organisation's admin (or us) for an invitation link.</p>
    </main>
  </Document>
  );
};
