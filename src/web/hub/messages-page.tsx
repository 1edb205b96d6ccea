import { MESSAGE_BODY_MAX, MESSAGE_SUBJECT_MAX } from "../../domain/hub/view";
import type { messagesPage as loadMessagesPage } from "../../services/hub/client-hub";
import { FeedbackLines, FieldError, HubPage, invalidIf, RequiredMark, type Feedback, type HubView } from "./layout";

type MessagesPage = Awaited<ReturnType<typeof loadMessagesPage>>;

/** The conversation with the funding provider of one deal, and the reply form. */
export function messagesPage({ base, local, readOnly = false }: HubView, p: MessagesPage, f: Feedback = {}, draft: { subject?: string; body?: string } = {}) {
  const { deal, messages } = p;
  return (
    <HubPage title={`Messages: ${deal.deal.ref}`} base={base} readOnly={readOnly}>
      <h1>
        Messages: {deal.label} ({deal.deal.ref})
      </h1>
      <FeedbackLines f={f} inputs={readOnly ? [] : ["subject", "body"]} />
      {messages.length === 0 ? (
        <p class="muted">No messages yet.</p>
      ) : (
        <ol id="messages">
          {messages.map((m) => (
            <li>
              <strong>{m.direction === "borrower_to_lender" ? "You" : "Funding provider"}</strong> <span class="muted">{local.time(m.createdAt)}</span>
              {m.subject ? (
                <>
                  <br />
                  <em dir="auto">{m.subject}</em>
                </>
              ) : null}
              <br />
              <span class="body" dir="auto">
                {m.body}
              </span>
            </li>
          ))}
        </ol>
      )}
      {readOnly ? null : (
        <>
          <h2>Reply</h2>
          <form method="post" action={`${base}/deals/${deal.deal.ref}/messages`}>
            <label for="subject">Subject (optional)</label>
            <input id="subject" type="text" name="subject" maxlength={MESSAGE_SUBJECT_MAX} value={draft.subject ?? ""} {...invalidIf(f, "subject")} />
            <FieldError f={f} name="subject" />
            <label for="body">
              Message
              <RequiredMark />
            </label>
            <textarea id="body" name="body" rows={5} maxlength={MESSAGE_BODY_MAX} required {...invalidIf(f, "body")}>
              {draft.body ?? ""}
            </textarea>
            <FieldError f={f} name="body" />
            <button type="submit">Send</button>
          </form>
        </>
      )}
    </HubPage>
  );
}
