import { PORTAL_ROUTE } from "../context";
import { Document } from "../layout";
import { PasskeyCeremony } from "./ceremony-block";
import { PASSKEYS_SCRIPT_PATH } from "./passkeys-asset";

/** Sign-in asks for no email: the browser offers the passkeys it holds for this site (discoverable credentials). */
export const signInPage = () => (
  <Document title="Sign in" scripts={[PASSKEYS_SCRIPT_PATH]}>
    <main>
      <h1>Sign in to the portal</h1>
      <p>Use the passkey you made when you accepted your invitation. Your browser or phone will ask which one.</p>
      <PasskeyCeremony ceremony="sign-in" optionsUrl={`${PORTAL_ROUTE}/sign-in/options`} verifyUrl={`${PORTAL_ROUTE}/sign-in/verify`} label="Sign in with a passkey" />
      <p class="muted">No passkey yet? Ask your organisation's admin (or us) for an invitation link.</p>
    </main>
  </Document>
);
