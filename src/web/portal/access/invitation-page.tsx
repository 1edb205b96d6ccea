import type { PortalRole } from "../../../domain/portal/viewer";
import { PORTAL_ROUTE } from "../context";
import { Document } from "../layout";
import { PasskeyCeremony } from "./ceremony-block";
import { PASSKEYS_SCRIPT_PATH } from "./passkeys-asset";

const ROLE_WORDS: Record<PortalRole, string> = {
  admin: "an admin (API keys, webhooks, members and the audit log, besides the work itself)",
  member: "a member",
};

/** An open invitation: who invites whom, as what, and the button that makes the passkey. */
export const invitationPage = (props: { token: string; organisationName: string; email: string; role: PortalRole }) => (
  <Document title="Accept your invitation" scripts={[PASSKEYS_SCRIPT_PATH]}>
    <main>
      <h1>
        Join <bdi>{props.organisationName}</bdi>
      </h1>
      <p>
        You are invited as {ROLE_WORDS[props.role]} of <strong>
          <bdi>{props.organisationName}</bdi>
        </strong>, under the address <strong>{props.email}</strong>.
      </p>
      <p>
        You sign in with a passkey: your phone, computer or security key keeps it, and no password is ever made. This link works once.
      </p>
      <PasskeyCeremony
        ceremony="register"
        optionsUrl={`${PORTAL_ROUTE}/invitations/${props.token}/options`}
        verifyUrl={`${PORTAL_ROUTE}/invitations/${props.token}/verify`}
        label="Create passkey"
      />
    </main>
  </Document>
);
