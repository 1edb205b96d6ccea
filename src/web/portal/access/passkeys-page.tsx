/** The signed-in member's own passkeys: the list, adding another (a registration ceremony) and removing one behind the confirm page. */
import { formatFor } from "../../kit/format";
import type { PortalViewer } from "../../../domain/portal/viewer";
import { ConfirmStart } from "../../kit/confirm";
import { RecordTable } from "../../kit/table";
import { PORTAL_ROUTE } from "../context";
import { PortalPage, type PageFeedback } from "../layout";
import { PasskeyCeremony } from "./ceremony-block";
import { PASSKEYS_SCRIPT_PATH } from "./passkeys-asset";
import { StepUpCeremony } from "./step-up";

interface PasskeyLine {
  credentialId: string;
  transports: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

// The kit's one time form, in the member's own zone, named.
const when = (iso: string | null) => (iso ? formatFor(null).time(iso) : "Not used yet");

/** A passkey has no name of its own: where it lives (as the authenticator said) and the end of its id, which the browser's passkey manager shows too. */
export function passkeyName(p: Pick<PasskeyLine, "credentialId" | "transports">) {
  const where = p.transports.includes("internal") ? "This device's passkey" : p.transports.includes("hybrid") ? "Phone passkey" : p.transports.includes("usb") || p.transports.includes("nfc") ? "Security key" : "Passkey";
  return `${where} …${p.credentialId.slice(-6)}`;
}

export const passkeysPage = (p: { viewer: PortalViewer; formToken: string; passkeys: PasskeyLine[]; stepUpNeeded: boolean; feedback?: PageFeedback }) => (
  <PortalPage title="Your passkeys" viewer={p.viewer} formToken={p.formToken} feedback={p.feedback} scripts={[PASSKEYS_SCRIPT_PATH]}>
    <p>You sign in as {p.viewer.email} with any of these. Keep two (a phone and a computer, or a security key) so losing one does not lock you out.</p>
    <RecordTable
      label="Your passkeys"
      rows={p.passkeys}
      columns={[
        { header: "Passkey", cell: (k) => <span id={`passkey-${k.credentialId}`}>{passkeyName(k)}</span>, rowHeader: true },
        { header: "Added", cell: (k) => when(k.createdAt) },
        { header: "Last used", cell: (k) => when(k.lastUsedAt) },
        {
          header: "Action",
          actions: true,
          cell: (k) =>
            p.passkeys.length > 1 ? (
              <ConfirmStart href={`${PORTAL_ROUTE}/passkeys/${k.credentialId}/remove`} label="Remove" describedBy={`passkey-${k.credentialId}`} />
            ) : (
              <span class="muted">Your only passkey</span>
            ),
        },
      ]}
    />
    <h2>Add a passkey</h2>
    {p.stepUpNeeded ? (
      // A new passkey is a new way in, so the session alone does not add one.
      <>
        <p>A new passkey is a new way into your account, so confirm it is you with one of your passkeys first. Then add the new one here.</p>
        <StepUpCeremony formToken={p.formToken} next={`${PORTAL_ROUTE}/passkeys`} />
      </>
    ) : (
      <>
        <p>Your browser asks where to keep it: this device, your phone or a security key.</p>
        <PasskeyCeremony
          ceremony="register"
          optionsUrl={`${PORTAL_ROUTE}/passkeys/options`}
          verifyUrl={`${PORTAL_ROUTE}/passkeys/verify`}
          label="Add a passkey"
          formToken={p.formToken}
          doneMessage="Passkey added. Showing your passkeys…"
        />
      </>
    )}
  </PortalPage>
);
