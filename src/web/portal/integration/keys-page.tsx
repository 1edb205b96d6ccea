/** The API keys pages: the organisation's keys in the picked environment, the create form, and the key shown once. */
import type { PortalViewer } from "../../../domain/portal/viewer";
import { PORTAL_ROUTE } from "../context";
import { FieldError, FormToken, PortalPage, type PageFeedback } from "../layout";
import { Id, SecretShownOnce, When } from "./bits";
import { RecordTable } from "../../kit/table";
import { environmentInWords, formatFor } from "../../kit/format";
import { Copyable } from "../../kit/copy";
import { ConfirmStart } from "../../kit/confirm";
import { WebsiteSnippet } from "../partner/website-form";

interface KeyListed {
  client_id: string;
  kind: "partner" | "lender" | "publishable";
  allowed_origins: string[];
  created_at: string;
  revoked_at: string | null;
}

/** What the member typed, put back in the form when it is refused. */
export interface KeyFormEntry {
  type: string;
  allowed_origins: string;
}

export const EMPTY_KEY_FORM: KeyFormEntry = { type: "secret", allowed_origins: "" };

export const KIND_LABEL: Record<KeyListed["kind"], string> = { partner: "Partner secret", lender: "Lender secret", publishable: "Publishable" };

interface KeysPageProps {
  viewer: PortalViewer;
  formToken: string;
  keys: KeyListed[];
  entry: KeyFormEntry;
  feedback?: PageFeedback;
}

export function KeysPage(props: KeysPageProps) {
  const { viewer, keys } = props;
  return (
    <PortalPage title="API keys" viewer={viewer} formToken={props.formToken} feedback={props.feedback}>
      <p>
        The keys of {viewer.organisationName} in the <strong>{environmentInWords(viewer.environment)}</strong> environment. The client id is the key's public prefix; the rest of a key is
        shown once, when it is created, and only its hash is kept.
      </p>
      {keys.length === 0 ? (
        <p>No keys in this environment yet.</p>
      ) : (
        <RecordTable
          label="API keys"
          rows={keys}
          inactive={(key) => (key.revoked_at ? `Revoked on ${formatFor(null).time(key.revoked_at)}` : null)}
          columns={[
            {
              header: "Client id",
              rowHeader: true,
              cell: (key) => (
                <>
                  {/* A revoked key keeps its id but no button (nothing that looks live); the span names the key for its Revoke link. */}
                  <span id={`key-${key.client_id}`}>
                    {key.revoked_at ? <Id value={key.client_id} /> : <Copyable value={key.client_id} anchor={`key-${key.client_id}`} what="the client id" />}
                  </span>
                  {key.allowed_origins.length > 0 ? <div class="muted">Origins: {key.allowed_origins.join(", ")}</div> : null}
                </>
              ),
            },
            { header: "Kind", cell: (key) => KIND_LABEL[key.kind] },
            { header: "Created", cell: (key) => <When at={key.created_at} /> },
            { header: "State", cell: (key) => (key.revoked_at ? <span class="muted">Inactive: calls with it are refused</span> : "Active") },
            {
              header: "Action",
              actions: true,
              // A revoked key has nothing left to do: no button that would make it look live.
              cell: (key) =>
                key.revoked_at ? null : (
                  <ConfirmStart href={`${PORTAL_ROUTE}/keys/${encodeURIComponent(key.client_id)}/revoke`} label="Revoke" danger describedBy={`key-${key.client_id}`} />
                ),
            },
          ]}
        />
      )}
      <CreateKeyForm {...props} />
    </PortalPage>
  );
}

function CreateKeyForm(props: KeysPageProps) {
  const error = props.feedback?.error;
  const partner = props.viewer.organisationKind === "partner";
  return (
    <section aria-labelledby="create-key">
      <h2 id="create-key">Create a {environmentInWords(props.viewer.environment)} key</h2>
      <form method="post" action={`${PORTAL_ROUTE}/keys`}>
        <FormToken token={props.formToken} />
        {partner ? (
          <fieldset aria-describedby={error?.field === "type" ? "type-error" : undefined}>
            <legend>Type</legend>
            <label>
              <input type="radio" name="type" value="secret" checked={props.entry.type !== "publishable"} /> Secret: for your servers
            </label>
            <label>
              <input type="radio" name="type" value="publishable" checked={props.entry.type === "publishable"} /> Publishable: for a web page, from the origins
              below
            </label>
            <FieldError field="type" error={error} />
          </fieldset>
        ) : (
          <p class="muted">Lender keys are secret keys, for your servers.</p>
        )}
        {partner ? (
          <>
            <label for="allowed_origins">Allowed origins (publishable keys only), one per line</label>
            <textarea
              id="allowed_origins"
              name="allowed_origins"
              rows={3}
              placeholder="https://www.example.com"
              aria-describedby={error?.field === "allowed_origins" ? "allowed_origins-error" : undefined}
              aria-invalid={error?.field === "allowed_origins" ? "true" : undefined}
              autofocus={error?.field === "allowed_origins" || undefined}
            >
              {props.entry.allowed_origins}
            </textarea>
            <FieldError field="allowed_origins" error={error} />
          </>
        ) : null}
        <button type="submit">Create key</button>
      </form>
    </section>
  );
}

export function KeyIssuedPage(props: {
  viewer: PortalViewer;
  formToken: string;
  serviceOrigin: string;
  issued: { key: string; client_id: string; kind: KeyListed["kind"]; allowed_origins: string[] };
}) {
  return (
    <PortalPage title="Your new API key" viewer={props.viewer} formToken={props.formToken}>
      <p>
        {KIND_LABEL[props.issued.kind]} key <Id value={props.issued.client_id} /> for the {environmentInWords(props.viewer.environment)} environment.
      </p>
      <SecretShownOnce label="The key" value={props.issued.key} note="We keep only its hash: if it is lost, revoke it and create another." />
      {props.issued.kind === "publishable" ? (
        <section aria-label="Prequalification form for your website">
          <h2>The prequalification form for your website</h2>
          <WebsiteSnippet serviceOrigin={props.serviceOrigin} publishableKey={props.issued.key} allowedOrigins={props.issued.allowed_origins} />
        </section>
      ) : null}
      <p>
        <a href={`${PORTAL_ROUTE}/keys`}>Back to the API keys</a>
      </p>
    </PortalPage>
  );
}
