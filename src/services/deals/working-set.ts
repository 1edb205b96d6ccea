/**
 * The lender's working set: assigning a deal to a colleague and keeping internal
 * notes on it. Portal only: no API route, event or webhook carries either, so the partner and the
 * client hub never read them. Each read and write is scoped to the lender and environment.
 */
import type { Deps } from "../deps";
import { isoNow } from "../deps";
import type { Scope } from "../../domain/identity/caller";
import { runBatch } from "../../db/batch";
import { assigneeIdOf, assignmentUpdate, colleaguesOf, noteInsert, notesOf } from "../../db/deals/working-set";
import { newId } from "../../lib/ids";
import { Refusal } from "../../lib/refusal";
import { FORBIDDEN_TEXT_MESSAGE, hasForbiddenTextCharacter } from "../../lib/unicode";
import { requireDeal } from "./reads";

export const NOTE_MAX_CHARS = 2000;

/** `memberId` empty: nobody. A member not of the lender's organisation (or removed) is refused by the field. */
export async function assignDeal(deps: Deps, scope: Scope, ref: string, memberId: string) {
  const deal = await requireDeal(deps, scope, ref);
  if (memberId !== "" && !(await colleaguesOf(deps.db, scope)).some((m) => m.id === memberId)) {
    throw new Refusal("invalid_request", "Choose a colleague from the list.", { field: "assignee" });
  }
  await runBatch(deps.db, [assignmentUpdate(deps.db, scope, deal.ref, memberId || null, isoNow(deps))]);
  return deal.ref;
}

export async function addDealNote(deps: Deps, scope: Scope, memberId: string, ref: string, body: string) {
  const deal = await requireDeal(deps, scope, ref);
  const text = body.trim();
  if (text === "") throw new Refusal("invalid_request", "Write the note before saving it.", { field: "note_body" });
  if (hasForbiddenTextCharacter(text, { lines: true })) throw new Refusal("invalid_request", `The note ${FORBIDDEN_TEXT_MESSAGE}`, { field: "note_body" });
  if (text.length > NOTE_MAX_CHARS) throw new Refusal("invalid_request", `A note is at most ${NOTE_MAX_CHARS} characters.`, { field: "note_body" });
  const id = newId("note");
  await runBatch(deps.db, [noteInsert(deps.db, scope, { id, ref: deal.ref, memberId, body: text, at: isoNow(deps) })]);
  return id;
}

/**
 * What the deal page shows of the working set: who has it, who could, and the notes. The deal and its
 * notes are environment data and the members control rows, in different databases for the sandbox
 * (docs/capacity.md): read apart, matched here. An assignee or author no longer a current member of the
 * organisation is shown as nobody (null), as the join did.
 */
export async function workingSetOf(deps: Deps, scope: Scope, ref: string) {
  const [assigneeId, colleagues, notes] = await Promise.all([assigneeIdOf(deps.db, scope, ref), colleaguesOf(deps.db, scope), notesOf(deps.db, scope, ref)]);
  const emails = new Map(colleagues.map((m) => [m.id, m.email]));
  const assignee = assigneeId !== null && emails.has(assigneeId) ? { id: assigneeId, email: emails.get(assigneeId)! } : null;
  return { assignee, colleagues, notes: notes.map((n) => ({ ...n, author: emails.get(n.memberId) ?? null })) };
}

export type WorkingSet = Awaited<ReturnType<typeof workingSetOf>>;
