import { listEvents } from "../../db/webhooks/event-log";
import { dealNamesOf, isOwnDeal, isOwnLead, leadIdOfReference, leadNamesOf } from "../../db/webhooks/event-subjects";
import { Refusal } from "../../lib/refusal";
import type { Scope } from "../../domain/identity/caller";
import type { WebhookApi } from "../../domain/webhooks/subscriptions";
import { nextKeysetCursor, readKeysetCursor } from "../../lib/cursor";
import { signingSecretOf } from "../../lib/signing-secret";
import { eventData, WEBHOOK_API_VERSION } from "./payloads";
import type { ViewContext } from "../views/view-context";

const LEAD_REFERENCE = /^RF-/i;
const DEAL_REFERENCE = /^DL-/i;

/**
 * What an events filter's `subject` names, as the event log stores it: a partner's `RF-…` reference
 * becomes its lead's id (a person knows the reference; events name the lead by id). Null when the
 * reference is no lead of the caller's.
 */
async function storedSubject(ctx: ViewContext, scope: Scope, api: WebhookApi, subject: string) {
  return api === "partner" && LEAD_REFERENCE.test(subject) ? leadIdOfReference(ctx.db, scope, subject) : subject;
}

/**
 * The portal's filter: the subject a person typed, checked against what they own,
 * so a mistyped or foreign reference is told as such ("No lead with reference RF-XXXXXX.") instead of
 * an empty log. Answers the subject as stored; refuses with `invalid_request` naming `subject`.
 */
export async function requireEventSubject(ctx: ViewContext, scope: Scope, api: WebhookApi, typed: string) {
  const subject = typed.trim();
  const refuse = (detail: string) => new Refusal("invalid_request", detail, { field: "subject" });
  if (api === "partner") {
    if (LEAD_REFERENCE.test(subject)) {
      const id = await leadIdOfReference(ctx.db, scope, subject);
      if (!id) throw refuse(`No lead with reference ${subject.toUpperCase()}.`);
      return id;
    }
    if (!(await isOwnLead(ctx.db, scope, subject))) throw refuse(`No lead with id ${subject}.`);
    return subject;
  }
  if (DEAL_REFERENCE.test(subject)) {
    if (!(await isOwnDeal(ctx.db, scope, subject))) throw refuse(`No deal with reference ${subject.toUpperCase()}.`);
    return subject;
  }
  // A lender's other subjects are the businesses it referred (leads it owns, by id).
  if (!(await isOwnLead(ctx.db, scope, subject))) throw refuse(`No deal or referral ${subject}.`);
  return subject;
}

/**
 * One page of the caller's event log (`GET /events`), newest first, each event with its
 * reference payload. The cursor is bound to the API, organisation and environment, so it
 * cannot be replayed in another scope.
 */
export async function pageOfEvents(
  ctx: ViewContext,
  scope: Scope,
  api: WebhookApi,
  filter: { event?: string; subject?: string },
  cursor: string | undefined,
  limit: number,
) {
  const cursorScope = `events:${api}:${scope.organisationId}:${scope.environment}`;
  const signingSecret = signingSecretOf(ctx.env);
  const position = await readKeysetCursor(cursor, cursorScope, signingSecret);
  const subject = filter.subject === undefined ? undefined : await storedSubject(ctx, scope, api, filter.subject.trim());
  // A reference that is no lead of the caller's: nothing matches (the API answers an empty page, as for an unknown id).
  if (subject === null) return { events: [], next_cursor: null };
  const page = await listEvents(ctx.db, scope, api, { event: filter.event, subject }, position, limit + 1);
  const events = page.slice(0, limit);
  const last = events[events.length - 1];
  return {
    events: await Promise.all(
      events.map(async (e) => ({
        id: e.id,
        event: e.event,
        created_at: e.createdAt,
        environment: e.environment,
        livemode: e.environment === "live",
        api_version: WEBHOOK_API_VERSION,
        subject: { type: e.subjectType, id: e.subjectId },
        data: await eventData(ctx, e, "reference"),
      })),
    ),
    next_cursor: await nextKeysetCursor(last && { createdAt: last.createdAt, seq: last.seq }, page.length > limit, cursorScope, signingSecret),
  };
}

/** An event's subject as a person reads it: a lead's (or referral's) reference and business name, a deal's reference and business name. */
export interface SubjectName {
  reference: string;
  businessName: string | null;
}

/**
 * The names of the events' subjects, read in two scoped queries (the organisation's own
 * leads and, for a lender, its own deals in the environment), keyed `type:id`. A subject that is not the
 * caller's (or no longer there) has no entry: the page shows it without a name.
 */
export async function namesOfSubjects(ctx: ViewContext, scope: Scope, subjects: readonly { type: string; id: string }[]) {
  const ids = (type: string) => [...new Set(subjects.filter((s) => s.type === type).map((s) => s.id))];
  const leadIds = [...new Set([...ids("lead"), ...ids("referral")])];
  const [leadRows, dealRows] = await Promise.all([leadNamesOf(ctx.db, scope, leadIds), dealNamesOf(ctx.db, scope, ids("deal"))]);
  const names = new Map<string, SubjectName>();
  for (const row of leadRows) {
    for (const type of ["lead", "referral"]) names.set(`${type}:${row.id}`, { reference: row.reference, businessName: row.businessName });
  }
  for (const row of dealRows) names.set(`deal:${row.ref}`, { reference: row.ref, businessName: row.businessName });
  return names;
}
