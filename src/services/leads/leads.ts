/**
 * The partner lead life cycle: open, fill in, name significant persons, submit,
 * list. Rules come from src/domain; storage from src/db/leads/leads.ts.
 */
import { depsIn, type Deps } from "../deps";
import type { NewEvent } from "../../db/webhooks/events";
import { findLead, insertLead, isReferenceCollision, listLeads, submissionStatements, updateDraft, type LeadFilters } from "../../db/leads/leads";
import { runGuardedBatch, type Statement } from "../../db/batch";
import type { Scope } from "../../domain/identity/caller";
import { marketProblems } from "../../domain/leads/market-rules";
import { mergeParts } from "../../domain/leads/patch";
import { missingForSubmit } from "../../domain/leads/submission";
import { newLeadReference } from "../../domain/leads/reference";
import type { ConsentChannel, Lead, LeadParts, SignificantPerson } from "../../domain/leads/types";
import { consentAfterWrite, consentWithdrawn, unknownTextVersion } from "../../domain/leads/consent";
import { eventInsert } from "../../db/webhooks/events";
import { eventInsertWhere } from "../../db/guarded";
import { draftWritten } from "../../db/leads/leads";
import { timelineEntry } from "../../domain/leads/timeline";
import { marketFor, type Market } from "../../domain/reference/markets";
import type { LeadState } from "../../domain/reference/values";
import { randomToken } from "../../lib/crypto";
import { nextKeysetCursor, readKeysetCursor } from "../../lib/cursor";
import { Refusal } from "../../lib/refusal";
import { signingSecretOf } from "../../lib/signing-secret";
import { findLeadWithRelations, type LeadWithRelations } from "../../db/leads/with-relations";
import { figuresFrom } from "./figures";
import { leadFacts, planRouting, type LeadMatch, type LeadMatcher } from "./routing";
import type { ResolvedFigures } from "../../domain/figures";
import { lookupWrites, sendLookups } from "../registers/lookups";
import { activeClaim, claimStatements, isClaimTaken } from "../../db/leads/claims";
import { ALREADY_INTRODUCED, SANDBOX_RELEASE_REASON, attributionWindowDays, claimableCompany, windowCutoff, type Claimable } from "../../domain/leads/attribution";
import { newId } from "../../lib/ids";
import { openOutlook } from "./outlook";
import type { Need } from "../../domain/panel/requirements";

const REFERENCE_ATTEMPTS = 5;
/** Optimistic writes retry this often when a concurrent write to the same draft got there first. */
const WRITE_ATTEMPTS = 5;

function refuseMarketProblems(lead: Pick<Lead, "business" | "trading" | "funding">, market: Market) {
  const problems = marketProblems(lead, market);
  if (problems.length > 0) {
    const [first] = problems;
    throw new Refusal("invalid_request", first.message, { field: first.field, extra: { errors: problems } });
  }
}

/** A partner event about a lead (its reference and state in the detail, as every lead event). */
export const leadEvent = (lead: Lead, event: string, detail: Record<string, unknown> = {}): NewEvent => ({
  organisationId: lead.organisationId,
  environment: lead.environment,
  api: "partner",
  event,
  subjectType: "lead",
  subjectId: lead.id,
  detail: { reference: lead.reference, state: lead.state, ...detail },
});

/** `lead.consent_captured`, carrying the receipt the write made. */
const consentCaptured = (lead: Lead) => leadEvent(lead, "lead.consent_captured", { receipt: lead.consent?.receipt ?? null });

/** A partner's consent (API or portal): a named text version must be published (`unknown_code` naming it). */
function refuseUnknownTextVersion(parts: Pick<LeadParts, "consent">) {
  const problem = unknownTextVersion(parts.consent);
  if (problem) throw new Refusal("unknown_code", problem, { field: "consent.text_version" });
}

const notFound = () => new Refusal("not_found", "No lead with that id in this account and environment.");
const submitted = (lead: Lead) =>
  new Refusal("lead_submitted", `The lead was submitted (state ${lead.state}) and can no longer be changed.`);

export async function requireLead(deps: Deps, scope: Scope, id: string) {
  const { db } = deps;
  const lead = await findLead(db, scope, id);
  if (!lead) throw notFound();
  return lead;
}

/**
 * The other environment of the caller's own organisation when the lead is there, else null: the portal
 * offers "Switch to live and open it" for a bookmarked live lead opened in the sandbox.
 * Scoped in SQL to the organisation, so another account's id answers null like an unknown one. Read in
 * the other environment's database, where its leads are (docs/capacity.md).
 */
export async function otherEnvironmentOfLead(deps: Deps, scope: Scope, id: string): Promise<Scope["environment"] | null> {
  const other = scope.environment === "sandbox" ? "live" : "sandbox";
  return (await findLead(depsIn(deps, other).db, { ...scope, environment: other }, id)) ? other : null;
}

/** What opening a lead takes. `renewalOf`: the funded lead a renewal renews (src/services/leads/renewals.ts). */
interface OpenLead {
  scope: Scope;
  market: Market;
  parts: LeadParts;
  makeReference?: () => string;
  renewalOf?: string | null;
  /** Where a consent in `parts` came from: the partner API unless the portal says so. */
  consentChannel?: ConsentChannel;
}

/** A new draft as `openLead` writes it (its reference still to draw) and its register lookups' writes. */
export function draftLead(deps: Deps, { scope, market, parts, renewalOf = null, consentChannel = "partner_api" }: Omit<OpenLead, "makeReference">) {
  const at = deps.clock().toISOString();
  refuseUnknownTextVersion(parts);
  const consent = consentAfterWrite(null, parts.consent ?? null, consentChannel, market.locale, at);
  const lead: Lead = {
    id: crypto.randomUUID(),
    reference: "",
    organisationId: scope.organisationId,
    environment: scope.environment,
    country: market.country,
    partnerReference: parts.partner_reference ?? null,
    state: "draft",
    channel: parts.channel ?? null,
    business: parts.business ?? null,
    contact: parts.contact ?? null,
    funding: parts.funding ?? null,
    trading: parts.trading ?? null,
    consent: consent.consent,
    significantPersons: parts.significant_persons ?? [],
    timeline: [{ event: "lead.created", occurred_at: at }],
    matchedOptions: null,
    options: null,
    version: 1,
    submittedAt: null,
    renewalOf,
    createdAt: at,
    updatedAt: at,
  };
  refuseMarketProblems(lead, market);
  return { lead, writes: lookupWrites(deps, null, lead, at), consentCaptured: consent.captured };
}

/**
 * Draws a fresh reference for `lead` and runs `write(lead)` (one batch), drawing again while the
 * reference collides with a taken one; then sends the register lookups the batch stored.
 */
export async function withFreshReference<T>(
  deps: Deps,
  lead: Lead,
  messages: Parameters<typeof sendLookups>[1],
  write: (lead: Lead) => Promise<T>,
  makeReference: () => string = newLeadReference,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    lead.reference = makeReference();
    try {
      const written = await write(lead);
      await sendLookups(deps, messages);
      return written;
    } catch (error) {
      if (!isReferenceCollision(error) || attempt >= REFERENCE_ATTEMPTS) throw error;
    }
  }
}

/** Its register lookups go to `deps.env.REGISTER_LOOKUPS` (without one the rows wait for the cron). */
export async function openLead(deps: Deps, { makeReference = newLeadReference, ...opening }: OpenLead): Promise<Lead> {
  const { lead, writes, consentCaptured: captured } = draftLead(deps, opening);
  return withFreshReference(deps, lead, writes.messages, async (drawn) => {
    const events = captured ? [eventInsert(deps.db, consentCaptured(drawn), drawn.createdAt)] : [];
    await insertLead(deps.db, drawn, [...writes.statements, ...events]);
    return drawn;
  }, makeReference);
}

/**
 * The draft changed since the version the caller drew its change from (a portal form, an API
 * client's If-Match): nothing is written, the caller reads again.
 */
const changedSince = (lead: Lead, expected: number) =>
  new Refusal("precondition_failed", `The lead changed since version ${expected} was read; it is now at version ${lead.version}. Read it again and make the change on what it holds now.`, {
    field: "header.If-Match",
  });

/**
 * Applies `change` to the draft as read, retrying when another write to it landed in between. With
 * `expected` (the version the caller's change was drawn from) there is no retry: a draft at any other
 * version is refused, and the conditional update on that version decides a race.
 */
export type DraftChange = (lead: Lead, at: string) => Parameters<typeof updateDraft>[4];
/** The events a draft write fires, given the lead as it reads once written; guarded on that write. */
export type DraftEvents = (before: Lead, after: Lead) => NewEvent[];

/** Other rows a draft write changes in its batch, each guarded itself (on `draftWritten`). */
export type DraftAlso = (after: Lead, at: string) => Statement[];

export async function changeDraft(deps: Deps, scope: Scope, id: string, change: DraftChange, expected?: number, eventsOf: DraftEvents = () => [], alsoOf: DraftAlso = () => []) {
  const { db } = deps;
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const lead = await requireLead(deps, scope, id);
    if (lead.state !== "draft") throw submitted(lead);
    if (expected !== undefined && lead.version !== expected) throw changedSince(lead, expected);
    const at = deps.clock().toISOString();
    const changes = change(lead, at);
    const after: Lead = { ...lead, ...changes, version: lead.version + 1, updatedAt: at };
    // A changed register number drops the old answer in this same batch and asks the register anew.
    const writes = lookupWrites(deps, lead, { ...lead, ...changes }, at);
    const events = eventsOf(lead, after).map((event) => eventInsertWhere(db, event, draftWritten(id, after.version, at), at));
    if (await updateDraft(db, scope, id, lead.version, changes, at, [...writes.statements, ...alsoOf(after, at), ...events])) {
      await sendLookups(deps, writes.messages);
      return requireLead(deps, scope, id);
    }
  }
  throw new Refusal("conflict", "The lead is being changed by another request; retry.");
}

export async function amendLead(deps: Deps, scope: Scope, id: string, patch: LeadParts & { country?: Market }, expected?: number, consentChannel: ConsentChannel = "partner_api") {
  refuseUnknownTextVersion(patch);
  let captured = false;
  return changeDraft(
    deps,
    scope,
    id,
    (lead, at) => {
      const market = patch.country ?? marketFor(lead.country);
      const merged = { ...mergeParts(lead, patch), country: market.country };
      refuseMarketProblems(merged, market);
      const consent = consentAfterWrite(lead.consent, merged.consent, consentChannel, market.locale, at);
      captured = consent.captured;
      return { ...merged, consent: consent.consent };
    },
    expected,
    (_before, after) => (captured ? [consentCaptured(after)] : []),
  );
}

export async function replaceSignificantPersons(deps: Deps, scope: Scope, id: string, persons: SignificantPerson[], expected?: number) {
  return changeDraft(deps, scope, id, (lead) => ({ ...lead, significantPersons: persons }), expected);
}

export interface SubmitOutcome {
  lead: Lead;
  alreadySubmitted: boolean;
  /** What the application could add for more options (the lead's `needs`). */
  needs: Need[];
}

/** What the matcher made of a draft: decided in the isolate, before anything is written. */
export interface DraftMatch {
  market: Market;
  figures: ResolvedFigures;
  match: LeadMatch;
}

/** Refuses a draft missing a mandatory field, else matches it on its figures (the register's stored answer counts). */
export async function matchDraft(deps: Deps, lead: Lead, relations: Pick<LeadWithRelations, "registerAnswers" | "documents">, matcher: LeadMatcher): Promise<DraftMatch> {
  const market = marketFor(lead.country);
  if (consentWithdrawn(lead.consent)) {
    throw new Refusal("consent_required", "The business withdrew its consent; the lead cannot be submitted until consent is given again.", { field: "consent.obtained" });
  }
  const missing = missingForSubmit(lead, market);
  if (missing.length > 0) {
    throw new Refusal("missing_fields", `Mandatory fields of ${market.name} are missing: ${missing.join(", ")}.`, { extra: { missing } });
  }
  // The register's stored answer counts at submit: its figures, and a company that is not active gets no options.
  const { figures, registry } = figuresFrom(deps, lead, market, relations.registerAnswers, relations.documents);
  return { market, figures, match: await matcher(leadFacts(lead, market, figures, registry, relations.documents)) };
}

/**
 * The submission of draft `lead` as statements for one batch (the first is the guard, see
 * `submissionStatements`), with the lead as it reads once they are written.
 */
export function planSubmission(deps: Deps, scope: Scope, lead: Lead, { market, figures, match }: DraftMatch, claim: Claimable | null = null) {
  const at = deps.clock().toISOString();
  const token = randomToken(24);
  const plan = planRouting(deps, lead, match, figures, market.currency, token, at);
  const state: LeadState = plan.state;
  const event = (name: string): NewEvent => ({
    organisationId: scope.organisationId,
    environment: scope.environment,
    api: "partner",
    event: name,
    subjectType: "lead",
    subjectId: lead.id,
    // The out-of-scope event carries the reasons the lead and its timeline show (`already_introduced` among them).
    detail: { reference: lead.reference, state, matched_options: match.matched_options, ...(name === "lead.out_of_scope" ? { reasons: match.reasons } : {}) },
  });
  const submission = {
    state,
    matchedOptions: match.matched_options,
    options: match.options,
    timeline: [...lead.timeline, ...plan.leadEvents.map((name) => timelineEntry(name, at, match.reasons))],
    token,
    at,
  };
  // A submission that routes claims its company in the same batch (docs/leads.md, "Attribution").
  const claimed =
    claim && match.matched_options > 0
      ? claimStatements(
          deps.db,
          { id: newId("att"), environment: lead.environment, companyKey: claim.identity.key, leadId: lead.id, organisationId: scope.organisationId, at, releasedWith: claim.releasedAtOnce ? SANDBOX_RELEASE_REASON : undefined, cutoff: windowCutoff(deps.clock(), attributionWindowDays(deps.env.ATTRIBUTION_WINDOW_DAYS)) },
          token,
        )
      : [];
  const statements = submissionStatements(deps.db, scope, lead, submission, plan.leadEvents.map(event), [...claimed, ...plan.statements]);
  // What the statements write when the guard wins (the update applies to the version read): no read-back.
  const { matchedOptions, options, timeline } = submission;
  const submitted: Lead = { ...lead, state, matchedOptions, options, timeline, submittedAt: at, version: lead.version + 1, updatedAt: at };
  return { statements, submitted };
}

/**
 * Submits a draft once. The conditional update of `planSubmission` decides
 * between racing submits (and a PATCH landing meanwhile): the loser reads the
 * winner's result and answers `already_submitted: true`; only the winner's
 * events are written.
 */
export async function submitLead(deps: Deps, scope: Scope, id: string, matcher: LeadMatcher): Promise<SubmitOutcome> {
  const { db } = deps;
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    // One round trip: the lead, its documents (parsed statements) and its register answers.
    const found = await findLeadWithRelations(db, scope, id);
    if (!found) throw notFound();
    const { lead } = found;
    if (lead.state !== "draft") return { lead, alreadySubmitted: true, needs: (await openOutlook(deps, found)).needs };
    const matched = await matchDraft(deps, lead, found, matcher);
    const claim = claimableCompany(lead);
    // The sandbox's standing claim: another partner always introduced this company first.
    const introduced = claim?.standingClaim ? notRouted(matched) : null;
    const plan = planSubmission(deps, scope, lead, introduced ?? matched, introduced ? null : claim);
    try {
      if ((await runGuardedBatch(db, plan.statements)) === 1) return { lead: plan.submitted, alreadySubmitted: false, needs: introduced ? [] : (matched.match.needs ?? []) };
    } catch (error) {
      // The database decided: another active claim holds the company; nothing of this batch was written.
      if (!claim || !isClaimTaken(error)) throw error;
      const holder = await activeClaim(db, lead.environment, claim.identity.key);
      if (!holder) continue;
      if (holder.organisationId === scope.organisationId) {
        throw new Refusal("duplicate_lead", "This partner already has an open submitted lead for this company; follow that lead instead.", {
          field: "business.company_number",
          extra: { existing_lead_id: holder.leadId },
        });
      }
      const later = planSubmission(deps, scope, lead, notRouted(matched), null);
      if ((await runGuardedBatch(db, later.statements)) === 1) return { lead: later.submitted, alreadySubmitted: false, needs: [] };
    }
  }
  throw new Refusal("conflict", "The lead is being changed by another request; retry.");
}

/** The match of a lead whose company another partner introduced: no option, one reason that names no one. */
export const notRouted = (matched: DraftMatch): DraftMatch => ({
  ...matched,
  match: { matched_options: 0, options: [], matchedProducts: [], reasons: [{ ...ALREADY_INTRODUCED }], needs: [] },
});


const cursorScope = (scope: Scope) => `leads:${scope.organisationId}:${scope.environment}`;

export async function pageOfLeads(deps: Deps, scope: Scope, filters: LeadFilters, cursor: string | undefined, limit: number) {
  const { db } = deps;
  const secret = signingSecretOf(deps.env);
  const after = await readKeysetCursor(cursor, cursorScope(scope), secret);
  const page = await listLeads(db, scope, filters, after, limit);
  return { leads: page.leads, nextCursor: await nextKeysetCursor(page.last ?? undefined, page.more, cursorScope(scope), secret) };
}
