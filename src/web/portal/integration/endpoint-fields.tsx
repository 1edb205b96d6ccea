/**
 * The fields of a webhook endpoint (URL, description, events, payload), shared by the register form and the edit
 * form so both mark and focus a refusal the same way: the refused input (or a refused group's first
 * choice) is focused and `aria-invalid`, the message sits beside it.
 */
import type { PortalViewer } from "../../../domain/portal/viewer";
import { LENDER_EVENTS, PARTNER_EVENTS } from "../../../domain/reference/values";
import { DESCRIPTION_MAX } from "../../../api/shared/schemas/webhooks";
import { FieldError, RequiredMark, type PageFeedback } from "../layout";

/** What the member typed or what the endpoint holds, put in the form. */
export interface EndpointFormEntry {
  url: string;
  /** A label for people ("Production CRM"); "" when none. */
  description: string;
  events: string[];
  payload: string;
}

export const eventChoicesOf = (kind: PortalViewer["organisationKind"]) => (kind === "partner" ? PARTNER_EVENTS : LENDER_EVENTS);

export function EndpointFields(props: { entry: EndpointFormEntry; error: PageFeedback["error"]; organisationKind: PortalViewer["organisationKind"]; placeholder?: string }) {
  const error = props.error;
  const describedBy = (field: string) => (error?.field === field ? `${field}-error` : undefined);
  const refused = (field: string) => (error?.field === field ? { "aria-invalid": "true", "aria-describedby": `${field}-error`, autofocus: true } : {});
  return (
    <>
      <label for="url">
        URL (https on a public host)
        <RequiredMark />
      </label>
      <input type="url" id="url" name="url" value={props.entry.url} required placeholder={props.placeholder} {...refused("url")} />
      <FieldError field="url" error={error} />
      <label for="description">Description (optional)</label>
      <input
        type="text"
        id="description"
        name="description"
        value={props.entry.description}
        maxlength={DESCRIPTION_MAX}
        placeholder="Production CRM"
        {...refused("description")}
        aria-describedby={error?.field === "description" ? "description-error description-hint" : "description-hint"}
      />
      <div class="muted" id="description-hint">
        A name your team knows it by, up to {DESCRIPTION_MAX} characters.
      </div>
      <FieldError field="description" error={error} />
      <fieldset aria-describedby={describedBy("events")}>
        <legend>Events</legend>
        {eventChoicesOf(props.organisationKind).map((event, index) => (
          <label>
            <input type="checkbox" name="events" value={event.value} checked={props.entry.events.includes(event.value)} {...(index === 0 ? refused("events") : {})} />{" "}
            <code>{event.value}</code>: {event.label}
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
    </>
  );
}
