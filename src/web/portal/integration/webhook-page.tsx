/** One webhook endpoint: its facts, its actions (test ping, new secret, delete) and its delivery log with a re-send per delivery. */
import type { PortalViewer } from "../../../domain/portal/viewer";
import type { deliveryView } from "../../../services/webhooks/views";
import { PORTAL_ROUTE } from "../context";
import { FormToken, PortalPage, type PageFeedback } from "../layout";
import { Id, SecretShownOnce, TableRegion, When } from "./bits";
import { endpointStatus, type EndpointShown } from "./webhooks-page";

export type DeliveryShown = ReturnType<typeof deliveryView>;

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
}

const action = (endpoint: EndpointShown, path: string) => `${PORTAL_ROUTE}/webhooks/${endpoint.id}/${path}`;

export function WebhookPage(props: WebhookPageProps) {
  const { endpoint } = props;
  return (
    <PortalPage title="Webhook endpoint" viewer={props.viewer} formToken={props.formToken} feedback={props.feedback}>
      <dl>
        <dt style="font-weight:600">URL</dt>
        <dd>
          <Id value={endpoint.url} />
        </dd>
        <dt style="font-weight:600">Id</dt>
        <dd>
          <Id value={endpoint.id} />
        </dd>
        <dt style="font-weight:600">Status</dt>
        <dd>{endpointStatus(endpoint)}</dd>
        <dt style="font-weight:600">Events</dt>
        <dd>{endpoint.events.join(", ")}</dd>
        <dt style="font-weight:600">Payload</dt>
        <dd>{endpoint.payload}</dd>
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
        <form method="post" action={action(endpoint, "delete")}>
          <FormToken token={props.formToken} />
          <button type="submit">Delete this endpoint</button>
        </form>
      </section>
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

function DeliveryLog(props: WebhookPageProps) {
  return (
    <TableRegion label="Delivery log">
      <table>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Attempts</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {props.deliveries.map((delivery) => (
            <tr data-delivery={delivery.id}>
              <td>
                <code>{delivery.event}</code>
                <div class="muted">
                  <When at={delivery.created_at} />
                </div>
              </td>
              <td>
                {delivery.attempts.length === 0 ? (
                  <span class="muted">none yet</span>
                ) : (
                  <ol style="margin:0;padding-left:1.2rem">
                    {delivery.attempts.map((attempt) => (
                      <li>
                        {attempt.status_code !== null ? `HTTP ${attempt.status_code}` : attempt.error} <span class="muted">({attempt.trigger})</span>{" "}
                        <When at={attempt.attempted_at} />
                      </li>
                    ))}
                  </ol>
                )}
              </td>
              <td>
                {STATE_LABEL[delivery.state]}
                <form method="post" action={action(props.endpoint, `deliveries/${delivery.id}/resend`)}>
                  <FormToken token={props.formToken} />
                  <button type="submit" aria-label={`Re-send ${delivery.event} delivery ${delivery.id}`}>
                    Re-send
                  </button>
                </form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
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
