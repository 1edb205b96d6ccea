/** The webhook endpoints page: the organisation's endpoints on its API in the picked environment, and the register form. */
import type { PortalViewer } from "../../../domain/portal/viewer";
import type { endpointView } from "../../../services/webhooks/views";
import { PORTAL_ROUTE } from "../context";
import { FormToken, PortalPage, type PageFeedback } from "../layout";
import { EndpointFields, eventChoicesOf, type EndpointFormEntry } from "./endpoint-fields";
import { Id, When } from "./bits";
import { RecordTable } from "../../kit/table";
import { environmentInWords, LABELS } from "../../kit/format";

export type EndpointShown = ReturnType<typeof endpointView>;

/** A new form subscribes to every event, as the API does when `events` is left out. */
export const emptyEndpointForm = (kind: PortalViewer["organisationKind"]): EndpointFormEntry => ({
  url: "",
  description: "",
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
        Where we send {viewer.organisationKind === "partner" ? "partner" : "lender"} API events for the <strong>{environmentInWords(viewer.environment)}</strong> environment, signed with
        each endpoint's secret. Open an endpoint for its delivery log, a test ping, a new secret or to delete it.
      </p>
      {endpoints.length === 0 ? (
        <p>No webhook endpoints in this environment yet.</p>
      ) : (
        <RecordTable
          label="Webhook endpoints"
          rows={endpoints}
          rowData={(endpoint) => ({ endpoint: endpoint.id })}
          inactive={(endpoint) => (endpoint.active ? null : "Deactivated")}
          columns={[
            {
              header: "Endpoint",
              rowHeader: true,
              cell: (endpoint) => (
                <>
                  {endpoint.description ? (
                    <div>
                      <strong>
                        <bdi>{endpoint.description}</bdi>
                      </strong>
                    </div>
                  ) : null}
                  <a href={`${PORTAL_ROUTE}/webhooks/${endpoint.id}`}>
                    <Id value={endpoint.url} />
                  </a>
                  <div class="muted">
                    {endpoint.events.length} event{endpoint.events.length === 1 ? "" : "s"}, payload: {LABELS.payloadModeShort(endpoint.payload)}
                  </div>
                </>
              ),
            },
            { header: "Status", cell: (endpoint) => endpointStatus(endpoint) },
            { header: "Last success", cell: (endpoint) => <When at={endpoint.last_success_at} /> },
          ]}
        />
      )}
      <RegisterForm {...props} />
    </PortalPage>
  );
}

function RegisterForm(props: WebhooksPageProps) {
  return (
    <section aria-labelledby="register-endpoint">
      <h2 id="register-endpoint">Register an endpoint</h2>
      <form method="post" action={`${PORTAL_ROUTE}/webhooks`}>
        <FormToken token={props.formToken} />
        <EndpointFields entry={props.entry} error={props.feedback?.error} organisationKind={props.viewer.organisationKind} placeholder="https://hooks.example.com/rfs" />
        <button type="submit">Register endpoint</button>
      </form>
    </section>
  );
}
