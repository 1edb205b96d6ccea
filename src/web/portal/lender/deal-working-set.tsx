/**
 * The lender's own working set on a deal (issue 45 item 5): who works it, and internal notes that
 * only the lender's members read (never the introducer or the client: no API, event or hub page
 * carries them). Both forms post through the kit's formAction (working-set-actions.ts).
 */
import type { WorkingSet } from "../../../services/deals/working-set";
import { NOTE_MAX_CHARS } from "../../../services/deals/working-set";
import type { PortalViewer } from "../../../domain/portal/viewer";
import { PORTAL_ROUTE } from "../context";
import { FormToken } from "../layout";
import { FormRefusal, Section, TextArea, refusalFor, type DealRefusal, type FormState } from "./fields";
import { FieldError } from "../layout";
import { day } from "./labels";

export function WorkingSetSection(props: { dealRef: string; viewer: PortalViewer; working: WorkingSet; formToken: string; refusal: DealRefusal | null }) {
  const assign: FormState = { form: "assign", refusal: props.refusal };
  const note: FormState = { form: "note", refusal: props.refusal };
  const w = props.working;
  const invalid = refusalFor(assign)?.field === "assignee";
  const someone = (id: string, email: string) => (id === props.viewer.memberId ? `You (${email})` : email);
  return (
    <Section id="working" title="Your team's work on this deal">
      <p class="muted">Only your organisation's members see this section: the introducer and the client never do.</p>
      <p data-assignee={w.assignee?.id ?? ""}>{w.assignee ? <>Assigned to {someone(w.assignee.id, w.assignee.email)}.</> : "Nobody is assigned yet."}</p>
      <form method="post" action={`${PORTAL_ROUTE}/deals/${props.dealRef}/assign`}>
        <FormToken token={props.formToken} />
        <label for="assignee">Assign to</label>
        <select id="assignee" name="assignee" aria-invalid={invalid ? "true" : undefined} aria-describedby={invalid ? "assignee-error" : undefined} autofocus={invalid || undefined}>
          <option value="">Nobody</option>
          {w.colleagues.map((m) => (
            <option value={m.id} selected={w.assignee?.id === m.id}>
              {someone(m.id, m.email)}
            </option>
          ))}
        </select>
        <FieldError field="assignee" error={refusalFor(assign)} />
        <FormRefusal state={assign} fields={["assignee"]} />
        <button type="submit">Assign</button>
      </form>
      <h3>Internal notes</h3>
      {w.notes.length === 0 ? (
        <p>No notes yet.</p>
      ) : (
        <ol class="messages">
          {w.notes.map((n) => (
            <li data-note={n.id}>
              <strong>{n.author ? someone(n.memberId, n.author) : "A former member"}</strong> <span class="muted">{day(n.createdAt)}</span>
              <p dir="auto">{n.body}</p>
            </li>
          ))}
        </ol>
      )}
      <form method="post" action={`${PORTAL_ROUTE}/deals/${props.dealRef}/notes`}>
        <FormToken token={props.formToken} />
        <TextArea state={note} name="note_body" label="Add a note for your team" required maxlength={NOTE_MAX_CHARS} />
        <FormRefusal state={note} fields={["note_body"]} />
        <button type="submit">Save note</button>
      </form>
    </Section>
  );
}
