/** The conversation with the client, oldest first, and the reply box (the same message the API sends). */
import type { messageView } from "../../../domain/deals/view";
import { MESSAGE_MAX_CHARS } from "../../../api/shared/schemas/deal-actions";
import { PORTAL_ROUTE } from "../context";
import { FormToken } from "../layout";
import { FormRefusal, Section, TextArea, type FormState } from "./fields";
import { day } from "./labels";
import type { DealRefusal } from "./fields";

export function MessagesSection(props: { dealRef: string; messages: ReturnType<typeof messageView>[]; formToken: string; refusal: DealRefusal | null; test: boolean }) {
  const state: FormState = { form: "message", refusal: props.refusal };
  return (
    <Section id="messages" title="Messages">
      {props.messages.length === 0 ? (
        <p>No messages yet.</p>
      ) : (
        <ol class="messages">
          {props.messages.map((m) => (
            <li data-message={m.id}>
              <strong>{m.direction === "lender_to_borrower" ? "You" : "Client"}</strong> <span class="muted">{day(m.created_at)}</span>
              <p dir="auto">{m.body}</p>
            </li>
          ))}
        </ol>
      )}
      {props.test ? <p class="muted">A test deal has no client: messages are kept, nobody is told.</p> : null}
      <form method="post" action={`${PORTAL_ROUTE}/deals/${props.dealRef}/messages`}>
        <FormToken token={props.formToken} />
        <TextArea state={state} name="body" label="Reply to the client" required maxlength={MESSAGE_MAX_CHARS} />
        <FormRefusal state={state} fields={["body"]} />
        <button type="submit">Send message</button>
      </form>
    </Section>
  );
}
