/**
 * One webhook endpoint: its facts, its actions (test ping, new secret, delete), the edit form (URL,
 * description, events, payload) and its delivery log: each attempt with the receiver's status and the start of its
 * answer, and the signed payload that was sent, with a re-send per delivery.
 */
import type { PortalViewer } from "../../../domain/portal/viewer";
import type { deliveryLogView, deliveryView } from "../../../services/webhooks/views";
import { PORTAL_ROUTE } from "../context";
import { FormToken, PortalPage, type PageFeedback } from "../layout";
import { Id, SecretShownOnce, When } from "./bits";
import { Copyable } from "../../kit/copy";
import { RecordTable } from "../../kit/table";
import { ConfirmStart } from "../../kit/confirm";
import { LABELS } from "../../kit/format";
import { endpointStatus, type EndpointShown } from "./webhooks-page";
import { EndpointFields, type EndpointFormEntry } from "./endpoint-fields";

type DeliveryShown = ReturnType<typeof deliveryLogView>;
type AttemptShown = DeliveryShown["attempts"][number];

/** What the edit form holds: the endpoint's settings, or what the member typed when a change was refused. */

/** Why an attempt got no HTTP answer, in words (the stored error is `kind: detail`). */
function noAnswer(error: string | null): string {
  const [kind, ...rest] = (error ?? "").split(": ");
  const detail = rest.join(": ");
  if (kind === "timeout") return "no answer within 5 seconds";
  if (kind === "network_error") return `no answer: the connection failed${detail ? ` (${detail.replace(/\.$/, "")})` : ""}`;
  if (kind === "address_refused") return `not sent: the address was refused${detail ? ` (${detail.replace(/\.$/, "")})` : ""}`;
  return error ?? "no answer";
}

/** One attempt in a line: the receiver's status, or why there was none. */
const attemptLine = (attempt: AttemptShown) => (attempt.status_code !== null ? `HTTP ${attempt.status_code}` : noAnswer(attempt.error));

interface PingOutcome {
  ok: boolean;
  message: string;
  /** The start of the receiver's answer, when it said anything. */
  body: string | null;
}

/** What the page says after "Send a test ping": delivered (a notice), or refused or unanswered (an alert). */
export function pingOutcome(ping: ReturnType<typeof deliveryView>): PingOutcome | null {
  const attempt = ping.attempts.at(-1);
  if (!attempt) return null;
  if (ping.state === "succeeded") return { ok: true, message: `The test ping was delivered: your receiver answered ${attemptLine(attempt)}.`, body: attempt.response_body };
  const what = attempt.status_code !== null ? `your receiver answered ${attemptLine(attempt)}` : attemptLine(attempt);
  const gone = attempt.status_code === 410 ? " A 410 Gone switches the endpoint off; reactivate it once the receiver is back." : "";
  return { ok: false, message: `The test ping failed: ${what}.${gone}`, body: attempt.response_body };
}

/** A block of text as it was sent or received: wrapped, never wider than the screen. */
const Raw = (props: { text: string; label: string }) => (
  <pre class="raw" aria-label={props.label}>
    {props.text}
  </pre>
);

const STATE_LABEL: Record<DeliveryShown["state"], string> = {
  pending: "Pending",
  succeeded: "Delivered",
  exhausted: "Failed (no more retries)",
  cancelled: "Cancelled",
};

interface WebhookPageProps {
  viewer: PortalViewer;
  formToken: string;
  endpoint: EndpointShown;
  deliveries: DeliveryShown[];
  /** The link to the next page of older deliveries, when there is one. */
  olderHref: string | null;
  feedback?: PageFeedback;
  entry: EndpointFormEntry;
  /** A test ping the receiver refused or never answered: shown as an alert at the top, with its answer. */
  pingFailure?: PingOutcome | null;
}

const RAW_STYLE = "pre.raw{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f7fb;border:1px solid #dde;padding:.5rem;margin:.3rem 0;font-size:.85rem}";

const action = (endpoint: EndpointShown, path: string) => `${PORTAL_ROUTE}/webhooks/${endpoint.id}/${path}`;

export function WebhookPage(props: WebhookPageProps) {
  const { endpoint } = props;
  return (
    <PortalPage title="Webhook endpoint" viewer={props.viewer} formToken={props.formToken} feedback={props.feedback}>
      <style>{RAW_STYLE}</style>
      {props.pingFailure ? (
        <div class="error" role="alert" id={props.feedback?.notice || props.feedback?.error ? undefined : "outcome"} tabindex={-1} data-outcome>
          <p style="margin:0">{props.pingFailure.message}</p>
          {props.pingFailure.body ? (
            <>
              <p style="margin:.4rem 0 0">Its answer began:</p>
              <Raw text={props.pingFailure.body} label="The receiver's answer" />
            </>
          ) : null}
        </div>
      ) : null}
      <dl>
        <dt style="font-weight:600">Description</dt>
        <dd>{endpoint.description ? <bdi>{endpoint.description}</bdi> : <span class="muted">none</span>}</dd>
        <dt style="font-weight:600">URL</dt>
        <dd>
          <Id value={endpoint.url} />
        </dd>
        <dt style="font-weight:600">Id</dt>
        <dd>
          <Copyable value={endpoint.id} anchor="endpoint-id" what="the endpoint id" />
        </dd>
        <dt style="font-weight:600">Status</dt>
        <dd>{endpointStatus(endpoint)}</dd>
        <dt style="font-weight:600">Events</dt>
        <dd>{endpoint.events.join(", ")}</dd>
        <dt style="font-weight:600">Payload</dt>
        <dd>{LABELS.payloadMode(endpoint.payload)}</dd>
        <dt style="font-weight:600">Last success</dt>
        <dd>
          <When at={endpoint.last_success_at} />
        </dd>
        <dt style="font-weight:600">Last failure</dt>
        <dd>
          <When at={endpoint.last_failure_at} />
        </dd>
        <dt style="font-weight:600">Failed attempts since the last success</dt>
        <dd>{endpoint.failure_count}</dd>
      </dl>
      <section aria-labelledby="endpoint-actions">
        <h2 id="endpoint-actions">Actions</h2>
        {endpoint.active ? null : (
          <form method="post" action={action(endpoint, "reactivate")}>
            <FormToken token={props.formToken} />
            <button type="submit">Reactivate this endpoint</button>
            <span class="muted"> Deliveries start again with a fresh failure count; re-send the ones it missed below.</span>
          </form>
        )}
        <form method="post" action={action(endpoint, "test")}>
          <FormToken token={props.formToken} />
          <button type="submit">Send a test ping</button>
        </form>
        <form method="post" action={action(endpoint, "rotate-secret")}>
          <FormToken token={props.formToken} />
          <button type="submit">Rotate the signing secret</button>
          <span class="muted"> The old secret keeps signing beside the new one for 24 hours.</span>
        </form>
        <ConfirmStart href={action(endpoint, "delete")} label="Delete this endpoint" danger />
      </section>
      <EditForm {...props} />
      <section aria-labelledby="deliveries">
        <h2 id="deliveries">Deliveries</h2>
        {props.deliveries.length === 0 ? <p>Nothing has been sent to this endpoint yet.</p> : <DeliveryLog {...props} />}
        {props.olderHref ? (
          <p>
            <a href={props.olderHref}>Older deliveries</a>
          </p>
        ) : null}
      </section>
    </PortalPage>
  );
}

/**
 * The delivery log in the one table of records (kit/table.tsx): a table from 600 px up, a card per
 * delivery below it (issue 23 item 14), its Re-send button the card's width.
 */
function DeliveryLog(props: WebhookPageProps) {
  return (
    <RecordTable
      label="Delivery log"
      rows={props.deliveries}
      rowData={(delivery) => ({ delivery: delivery.id })}
      columns={[
        {
          header: "Event",
          rowHeader: true,
          cell: (delivery) => (
            <>
              {LABELS.event(delivery.event)} <code>{delivery.event}</code>
              <div class="muted">
                <When at={delivery.created_at} />
              </div>
            </>
          ),
        },
        {
          header: "Attempts",
          cell: (delivery) => (
            <>
              {delivery.attempts.length === 0 ? (
                <span class="muted">none yet</span>
              ) : (
                <ol style="margin:0;padding-left:1.2rem">
                  {delivery.attempts.map((attempt) => (
                    <li data-attempt>
                      {attemptLine(attempt)} <span class="muted">({LABELS.attemptTrigger(attempt.trigger)})</span> <When at={attempt.attempted_at} />
                      {attempt.response_body ? (
                        <details>
                          <summary>Response body</summary>
                          <Raw text={attempt.response_body} label={`Response to ${delivery.event}`} />
                        </details>
                      ) : attempt.status_code !== null ? (
                        <div class="muted">empty response body</div>
                      ) : null}
                    </li>
                  ))}
                </ol>
              )}
              <details>
                <summary>Request payload</summary>
                <Raw text={delivery.request_body} label={`Payload of ${delivery.event}`} />
              </details>
            </>
          ),
        },
        { header: "State", cell: (delivery) => STATE_LABEL[delivery.state] },
        {
          header: "Action",
          actions: true,
          cell: (delivery) => (
            <form method="post" action={action(props.endpoint, `deliveries/${delivery.id}/resend`)}>
              <FormToken token={props.formToken} />
              <button type="submit" aria-label={`Re-send ${delivery.event} delivery ${delivery.id}`}>
                Re-send
              </button>
            </form>
          ),
        },
      ]}
    />
  );
}

/** The endpoint's settings, changed as `PATCH /webhooks/{id}` changes them; a refusal is shown beside its field. */
function EditForm(props: WebhookPageProps) {
  return (
    <section aria-labelledby="edit-endpoint">
      <h2 id="edit-endpoint">Change this endpoint</h2>
      <form method="post" action={action(props.endpoint, "edit")}>
        <FormToken token={props.formToken} />
        <EndpointFields entry={props.entry} error={props.feedback?.error} organisationKind={props.viewer.organisationKind} />
        <button type="submit">Save changes</button>
        <p class="muted">A new URL is checked as at registration. Deliveries already made keep the payload they were sent with.</p>
      </form>
    </section>
  );
}

/** The answer to a registration or a rotation: the signing secret, this once. */
export function EndpointSecretPage(props: { viewer: PortalViewer; formToken: string; endpoint: EndpointShown; secret: string; rotated: boolean }) {
  return (
    <PortalPage title={props.rotated ? "New signing secret" : "Webhook endpoint registered"} viewer={props.viewer} formToken={props.formToken}>
      <p>
        {props.rotated ? "The endpoint " : "Deliveries for "}
        <Id value={props.endpoint.url} />
        {props.rotated
          ? " is now signed with a new secret; the previous one keeps signing beside it for 24 hours, so switch your receiver over within a day."
          : " are signed with the secret below (the X-Service-Signature headers). Check every delivery with it."}
      </p>
      <SecretShownOnce label="The signing secret" value={props.secret} note="We keep it sealed and never show it again; rotate it if it is lost." />
      <p>
        <a href={`${PORTAL_ROUTE}/webhooks/${props.endpoint.id}`}>Go to the endpoint and its delivery log</a>
      </p>
    </PortalPage>
  );
}
