import type { PortalRole } from "../../../domain/portal/viewer";
import { PORTAL_ROUTE } from "../context";
import { Document, SignedOutHeader } from "../layout";
import { PasskeyCeremony } from "./ceremony-block";
import { PASSKEYS_SCRIPT_PATH } from "./passkeys-asset";
import { INVITATION_PAGE } from "./invitation-cookie";
import { HtmlPage } from "../../kit/document";

const ROLE_WORDS: Record<PortalRole, string> = {
  admin: "an admin (API keys, webhooks, members and the audit log, besides the work itself)",
  member: "a member",
};

/** An open invitation: who invites whom, as what, and the button that makes the passkey. */
export const invitationPage = (props: { organisationName: string; email: string; role: PortalRole; reenrol?: boolean }) => (
  <Document title={props.reenrol ? "Make a new passkey" : "Accept your invitation"} scripts={[PASSKEYS_SCRIPT_PATH]}>
    <main>
      {props.reenrol ? (
        <>
          <h1>
            A new passkey for <bdi>{props.organisationName}</bdi>
          </h1>
          <p>
            An admin of <strong>
              <bdi>{props.organisationName}</bdi>
            </strong>{" "}
            sent this link to <strong>{props.email}</strong> to sign in again. The passkey you make now replaces your passkeys: the old ones stop working and every
            open session of yours is signed out. You keep your role.
          </p>
        </>
      ) : (
        <>
          <h1>
            Join <bdi>{props.organisationName}</bdi>
          </h1>
          <p>
            You are invited as {ROLE_WORDS[props.role]} of <strong>
              <bdi>{props.organisationName}</bdi>
            </strong>, under the address <strong>{props.email}</strong>.
          </p>
        </>
      )}
      <p>
        You sign in with a passkey: your phone, computer or security key keeps it, and no password is ever made. This link works once.
      </p>
      <PasskeyCeremony
        ceremony="register"
        optionsUrl={`${INVITATION_PAGE}/options`}
        verifyUrl={`${INVITATION_PAGE}/verify`}
        label="Create passkey"
      />
    </main>
  </Document>
);

/**
 * A link that no longer opens (used, expired, revoked or never issued: they look alike, so a link
 * says nothing about an organisation): what to do next, and the way to sign in for who already has a passkey.
 */
export const invitationGonePage = () => (
  <Document title="This invitation link no longer works">
    <SignedOutHeader />
    <main id="main" tabindex={-1}>
      <h1>This invitation link no longer works</h1>
      <p>An invitation link works once and for 7 days. This one has been used, has expired or was withdrawn.</p>
      <p>
        <strong>What to do next:</strong> ask an admin of your organisation (the person who invited you) for a new link; they make one on the
        Members page of the portal. If you already made your passkey with this link, <a href={`${PORTAL_ROUTE}/sign-in`}>sign in</a> instead.
      </p>
    </main>
  </Document>
);

/**
 * The answer to an invitation link followed from another site: the cookie is set with this answer and the
 * page moves on by itself to the acceptance page (same-site now, so the Strict cookie goes along).
 */
export const invitationOpeningPage = (target: string) => (
  <HtmlPage title="Opening your invitation" head={<meta http-equiv="refresh" content={`0;url=${target}`} />}>
    <p>
      <a href={target}>Continue to your invitation</a>
    </p>
  </HtmlPage>
);
