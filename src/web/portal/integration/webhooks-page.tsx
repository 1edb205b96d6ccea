/** The webhook endpoints page: the organisation's endpoints on its API in the picked environment, and the register form. */
import type { PortalViewer } from "../../../domain/portal/viewer";
import { LENDER_EVENTS, PARTNER_EVENTS } from "../../../domain/reference/values";
import type { endpointView } from "../../../services/webhooks/views";
import { PORTAL_ROUTE } from "../context";
import { FieldError, FormToken, PortalPage, RequiredMark, type PageFeedback } from "../layout";
import { Id, TableRegion, When } from "./bits";

export type EndpointShown = ReturnType<typeof endpointView>;

/** What the member typed, put back in the form when it is refused. */
export interface EndpointFormEntry {
  url: string;
  events: string[];
  payload: string;
}

export const eventChoicesOf = (kind: PortalViewer["organisationKind"]) => (kind === "partner" ? PARTNER_EVENTS : LENDER_EVENTS);

/** A new form subscribes to every event, as the API does when `events` is left out. */
export const emptyEndpointForm = (kind: PortalViewer["organisationKind"]): EndpointFormEntry => ({
  url: "",
  events: eventChoicesOf(kind).map((e) => e.value),
  payload: "full",
});

export const endpointStatus = (endpoint: EndpointShown) =>
  endpoint.active
    ? "Active"
    : `Deactivated (${{ gone: "the receiver answered 410 Gone", exhausted: "deliveries kept failing", manual: "by hand" }[endpoint.deactivated_reason ?? "manual"]})`;

interface WebhooksPageProps {
  viewer: PortalViewer;
  formToken: string;
  endpoints: EndpointShown[];
  entry: EndpointFormEntry;
  feedback?: PageFeedback;
}

export function WebhooksPage(props: WebhooksPageProps) {
  const { viewer, endpoints } = props;
  return (
    <PortalPage title="Webhook endpoints" viewer={viewer} formToken={props.formToken} feedback={props.feedback}>
      <p>
        Where we send {viewer.organisationKind === "partner" ? "partner" : "lender"} API events for the <strong>{viewer.environment}</strong> environment, signed with
        each endpoint's secret. Open an endpoint for its delivery log, a test ping, a new secret or to delete it.
      </p>
      {endpoints.length === 0 ? (
        <p>No webhook endpoints in this environment yet.</p>
      ) : (
        <TableRegion label="Webhook endpoints">
          <table>
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col">Status</th>
                <th scope="col">Last success</th>
              </tr>
            </thead>
            <tbody>
              {endpoints.map((endpoint) => (
                <tr>
                  <td>
                    <a href={`${PORTAL_ROUTE}/webhooks/${endpoint.id}`}>
                      <Id value={endpoint.url} />
                    </a>
                    <div class="muted">
                      {endpoint.events.length} event{endpoint.events.length === 1 ? "" : "s"}, {endpoint.payload} payload
                    </div>
                  </td>
                  <td>{endpointStatus(endpoint)}</td>
                  <td>
                    <When at={endpoint.last_success_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <RegisterForm {...props} />
    </PortalPage>
  );
}

function RegisterForm(props: WebhooksPageProps) {
  const error = props.feedback?.error;
  const describedBy = (field: string) => (error?.field === field ? `${field}-error` : undefined);
  // A refused choice (events, payload): its first box is focused and marked, the message is beside the group.
  const refused = (field: string) => (error?.field === field ? { "aria-invalid": "true", "aria-describedby": `${field}-error`, autofocus: true } : {});
  return (
    <section aria-labelledby="register-endpoint">
      <h2 id="register-endpoint">Register an endpoint</h2>
      <form method="post" action={`${PORTAL_ROUTE}/webhooks`}>
        <FormToken token={props.formToken} />
        <label for="url">
          URL (https on a public host)
          <RequiredMark />
        </label>
        <input
          type="url"
          id="url"
          name="url"
          value={props.entry.url}
          required
          placeholder="https://hooks.example.com/rfs"
          aria-describedby={describedBy("url")}
          aria-invalid={error?.field === "url" ? "true" : undefined}
          autofocus={error?.field === "url" || undefined}
        />
        <FieldError field="url" error={error} />
        <fieldset aria-describedby={describedBy("events")}>
          <legend>Events</legend>
          {eventChoicesOf(props.viewer.organisationKind).map((event, index) => (
            <label>
              <input type="checkbox" name="events" value={event.value} checked={props.entry.events.includes(event.value)} {...(index === 0 ? refused("events") : {})} /> <code>{event.value}</code>: {event.label}
            </label>
          ))}
          <FieldError field="events" error={error} />
        </fieldset>
        <fieldset aria-describedby={describedBy("payload")}>
          <legend>Payload</legend>
          <label>
            <input type="radio" name="payload" value="full" checked={props.entry.payload !== "reference"} {...refused("payload")} /> Full: the whole record with the event
          </label>
          <label>
            <input type="radio" name="payload" value="reference" checked={props.entry.payload === "reference"} /> Reference: ids only, read the record through the API
          </label>
          <FieldError field="payload" error={error} />
        </fieldset>
        <button type="submit">Register endpoint</button>
      </form>
    </section>
  );
}
