/**
 * The application link: a partner's single-purpose link with which the business fills in
 * its own application, agrees to the consent text with the commission disclosure, and completes it.
 * The token and the browser session are stored only as their sha256; a guessed, used, expired or
 * revoked link answers `null` here, and the door shows one page for all of them.
 */
import { isoNow, type Deps } from "../deps";
import type { Scope } from "../../domain/identity/caller";
import {
  APPLICATION_LIMIT_WINDOW_SECONDS,
  APPLICATION_REQUESTS_PER_ADDRESS,
  APPLICATION_REQUESTS_PER_LINK,
  applicationAddressBucket,
  applicationLinkBucket,
  DEFAULT_EXPIRES_IN_SECONDS,
  linkIsUsable,
  linkStateAt,
  sessionExpiresAt,
  type ApplicationLink,
  type SubmitMode,
} from "../../domain/leads/application-link";
import { CURRENT_COMMISSION_DISCLOSURE, CURRENT_CONSENT_TEXT } from "../../domain/leads/consent-texts";
import { consentByBusiness, consentToWithdraw, withdrawnConsent, type ConsentWithdrawalChannel } from "../../domain/leads/consent";
import { missingForSubmit } from "../../domain/leads/submission";
import { marketFor } from "../../domain/reference/markets";
import type { Lead, LeadParts, SignificantPerson } from "../../domain/leads/types";
import {
  completeLinkUpdate,
  findLinkBySessionHash,
  findLinkByTokenHash,
  firstOpenedAt,
  insertLinkRevokingOthers,
  latestLinkOfLead,
  openSessionUpdate,
  revokeLiveLinks,
} from "../../db/leads/application-links";
import { draftWritten, findLead } from "../../db/leads/leads";
import { eventInsertWhere } from "../../db/guarded";
import { findOrganisation } from "../../db/identity/organisations";
import { randomToken, sha256Hex } from "../../lib/crypto";
import { newId } from "../../lib/ids";
import { Refusal, isRefusal } from "../../lib/refusal";
import { countInBucket } from "../identity/bucket-limit";
import { amendLead, changeDraft, leadEvent, replaceSignificantPersons, requireLead, submitLead } from "../leads/leads";
import { panelMatcher } from "../leads/routing";
import type { LinkEnv } from "../views/links";
import { APPLICATION_ROUTE } from "../../lib/signed-links";
export { APPLICATION_ROUTE };
import { findLeadWithRelations } from "../../db/leads/with-relations";
import { registerViewFrom } from "../registers/holdings";
import { leadDocuments, uploadLeadDocument } from "../documents/lead-documents";

/** The token in the link: 48 characters of [0-9a-z] (about 248 bits). */
export const APPLICATION_TOKEN = /^[0-9a-z]{48}$/;

interface LinkRequest {
  expires_in?: number;
  locked?: string[];
  return_url?: string;
  submit?: SubmitMode;
}

const noLead = () => new Refusal("not_found", "No lead with that id in this account and environment.");

/**
 * Where the link points: live leads on the production host (`PUBLIC_URL`), sandbox leads on the
 * sandbox host (the first of `SANDBOX_HOSTNAMES`, on `PUBLIC_URL`'s scheme and port). Without a
 * sandbox host configured, sandbox links use `PUBLIC_URL` too (the one host then serves both).
 */
function applicationLinkBase(env: LinkEnv & { SANDBOX_HOSTNAMES?: string }, environment: "sandbox" | "live") {
  const base = new URL(env.PUBLIC_URL ?? "http://localhost:8787");
  if (environment === "sandbox") {
    const host = (env.SANDBOX_HOSTNAMES ?? "").split(",").map((h) => h.trim()).find(Boolean);
    if (host) base.hostname = host;
  }
  return base.origin;
}

/** The state a partner reads; the token is never in it. */
const linkStatus = (link: ApplicationLink, now: number) => ({
  id: link.id,
  state: linkStateAt(link, now),
  submit: link.submitMode,
  locked: link.locked,
  return_url: link.returnUrl,
  expires_at: link.expiresAt,
  created_at: link.createdAt,
  opened_at: link.openedAt,
  completed_at: link.completedAt,
  revoked_at: link.revokedAt,
});

/**
 * `POST /partner/v1/leads/{id}/application-link`: a new link for a draft lead; the lead's previous
 * live link is revoked in the same batch. The token is answered once, in `url`, and stored hashed.
 */
export async function createApplicationLink(deps: Deps, scope: Scope, leadId: string, request: LinkRequest) {
  const lead = await requireLead(deps, scope, leadId);
  if (lead.state !== "draft") throw new Refusal("lead_submitted", `The lead was submitted (state ${lead.state}); an application link is for a draft.`);
  const now = deps.clock().getTime();
  const at = new Date(now).toISOString();
  const token = randomToken(48);
  const link: ApplicationLink = {
    id: newId("apl", 24),
    leadId: lead.id,
    organisationId: scope.organisationId,
    environment: scope.environment,
    state: "sent",
    submitMode: request.submit ?? "review",
    locked: [...new Set(request.locked ?? [])],
    returnUrl: request.return_url ?? null,
    expiresAt: new Date(now + (request.expires_in ?? DEFAULT_EXPIRES_IN_SECONDS) * 1000).toISOString(),
    createdAt: at,
    openedAt: null,
    completedAt: null,
    revokedAt: null,
    sessionHash: null,
    sessionExpiresAt: null,
  };
  if (!(await insertLinkRevokingOthers(deps.db, scope, { ...link, tokenHash: await sha256Hex(token) }))) {
    // The lead was submitted (or removed) between the read and the batch.
    throw new Refusal("lead_submitted", "The lead was submitted meanwhile; an application link is for a draft.");
  }
  return { ...linkStatus(link, now), url: `${applicationLinkBase(deps.env, scope.environment)}${APPLICATION_ROUTE}/${token}` };
}

/** `GET …/application-link`: the newest link's state (never its token); `not_found` when the lead has none. */
export async function applicationLinkOf(deps: Deps, scope: Scope, leadId: string) {
  await requireLead(deps, scope, leadId);
  const link = await latestLinkOfLead(deps.db, scope, leadId);
  if (!link) throw new Refusal("not_found", "This lead has no application link.");
  return linkStatus(link, deps.clock().getTime());
}

/** `DELETE …/application-link`: the lead's live link stops working at once, its session with it. */
export async function revokeApplicationLink(deps: Deps, scope: Scope, leadId: string) {
  await requireLead(deps, scope, leadId);
  await revokeLiveLinks(deps.db, scope, leadId, isoNow(deps));
  const link = await latestLinkOfLead(deps.db, scope, leadId);
  if (!link) throw new Refusal("not_found", "This lead has no application link.");
  return linkStatus(link, deps.clock().getTime());
}

// The business's side.

const scopeOfLink = (link: ApplicationLink): Scope => ({ organisationId: link.organisationId, environment: link.environment });

export interface Opened {
  link: ApplicationLink;
  lead: Lead;
  /** The partner's name, as the welcome says who sent the link. */
  introducer: string;
}

async function openedOf(deps: Deps, link: ApplicationLink): Promise<Opened | null> {
  const lead = await findLead(deps.db, scopeOfLink(link), link.leadId);
  if (!lead) return null;
  const organisation = await findOrganisation(deps.db, link.organisationId);
  return { link, lead, introducer: organisation?.name ?? "Your adviser" };
}

/** Whether the host serves this link's environment: sandbox links only on the sandbox host, live ones only elsewhere. */
const onItsHost = (link: ApplicationLink, sandboxHost: boolean) => (link.environment === "sandbox") === sandboxHost;

/** What a link is worth: the return URL a dead link may show, and nothing else. */
export async function deadLinkReturnUrl(deps: Deps, token: string, sandboxHost: boolean) {
  if (!APPLICATION_TOKEN.test(token)) return null;
  const link = await findLinkByTokenHash(deps.db, await sha256Hex(token));
  return link && onItsHost(link, sandboxHost) ? link.returnUrl : null;
}

/**
 * Trades a token for a browser session: a new session secret, stored hashed on the link (replacing
 * any other, so one browser holds the link at a time), `lead.application_opened` on the first
 * opening. Null for a guessed, used, expired or revoked token, or one on the wrong host.
 */
export async function openApplicationLink(deps: Deps, token: string, sandboxHost: boolean): Promise<{ opened: Opened; session: string; expiresAt: string } | null> {
  if (!APPLICATION_TOKEN.test(token)) return null;
  const link = await findLinkByTokenHash(deps.db, await sha256Hex(token));
  const now = deps.clock().getTime();
  if (!link || !onItsHost(link, sandboxHost) || !linkIsUsable(link, now)) return null;
  await countOnLink(deps, link.id);
  const opened = await openedOf(deps, link);
  if (!opened) return null;
  const at = new Date(now).toISOString();
  const session = randomToken(48);
  const expiresAt = sessionExpiresAt(link, now);
  const { db } = deps;
  const [update] = await db.batch([
    openSessionUpdate(db, link.id, await sha256Hex(session), expiresAt, at),
    eventInsertWhere(db, leadEvent(opened.lead, "lead.application_opened", { link: { id: link.id, expires_at: link.expiresAt } }), firstOpenedAt(link.id, at), at),
  ]);
  if ((update as unknown as D1Result).meta.changes !== 1) return null;
  return { opened: { ...opened, link: { ...link, state: "opened", openedAt: link.openedAt ?? at } }, session, expiresAt };
}

/**
 * The link behind a session cookie. `usable`: the pages that change the application need a live
 * link; the done page and withdrawal also take a completed one (the business's session outlives
 * its completion until the session ends).
 */
export async function openApplicationSession(deps: Deps, session: string, sandboxHost: boolean, need: "live" | "live_or_completed" = "live"): Promise<Opened | null> {
  if (!APPLICATION_TOKEN.test(session)) return null;
  const at = isoNow(deps);
  const link = await findLinkBySessionHash(deps.db, await sha256Hex(session), at);
  if (!link || !onItsHost(link, sandboxHost)) return null;
  const usable = linkIsUsable(link, deps.clock().getTime()) || (need === "live_or_completed" && link.state === "completed");
  if (!usable) return null;
  await countOnLink(deps, link.id);
  return openedOf(deps, link);
}

const bucketRule = (limit: number) => ({
  limit,
  windowSeconds: APPLICATION_LIMIT_WINDOW_SECONDS,
  unavailable: "The application cannot count requests just now; try again in a few seconds.",
  limited: (resetSeconds: number) => `Too many requests; try again in ${resetSeconds} seconds.`,
});
const countOnLink = (deps: Deps, linkId: string) => countInBucket(deps, applicationLinkBucket(linkId), bucketRule(APPLICATION_REQUESTS_PER_LINK));
export const countApplicationRequestFromAddress = (deps: Deps, address: string) => countInBucket(deps, applicationAddressBucket(address), bucketRule(APPLICATION_REQUESTS_PER_ADDRESS));

/** The value at a dotted path of the lead's parts (`business.name`). */
function heldAt(lead: Lead, path: string): unknown {
  let node: unknown = { business: lead.business, contact: lead.contact, funding: lead.funding, trading: lead.trading };
  for (const key of path.split(".")) node = node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined;
  return node ?? null;
}

function patchAt(patch: LeadParts, path: string): unknown {
  let node: unknown = patch;
  for (const key of path.split(".")) {
    if (!node || typeof node !== "object" || !(key in (node as object))) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node ?? null;
}

const lockedRefusal = (introducer: string, field: string) =>
  new Refusal("invalid_value", `${introducer} filled this in and it cannot be changed here; ask them if it is wrong.`, { field });

/**
 * One step saved: the patch (already parsed by the API's LeadPatch schema) through the API's own
 * amendLead, so every rule the API applies applies here. A locked field the patch would change is
 * refused beside it (nothing saved); a locked field left out keeps what the partner wrote.
 */
export async function saveApplicationStep(deps: Deps, opened: Opened, patch: LeadParts) {
  for (const path of opened.link.locked) {
    const sent = patchAt(patch, path);
    if (sent !== undefined && JSON.stringify(sent) !== JSON.stringify(heldAt(opened.lead, path))) throw lockedRefusal(opened.introducer, path);
  }
  return amendLead(deps, scopeOfLink(opened.link), opened.lead.id, patch);
}

/** The significant persons replaced whole (add, edit or remove), unless the partner locked them. */
export async function saveApplicationPersons(deps: Deps, opened: Opened, persons: SignificantPerson[]) {
  if (opened.link.locked.includes("significant_persons")) throw lockedRefusal(opened.introducer, "significant_persons");
  return replaceSignificantPersons(deps, scopeOfLink(opened.link), opened.lead.id, persons);
}

/**
 * The business agrees: the consent text and the commission disclosure in the page's locale (the lead's
 * market's unless the page was in another language the market is offered in), with its own choice of a soft credit search. One batch writes the consent and its receipt, ends the
 * link as completed, and fires `lead.consent_captured` and `lead.application_completed` (both guarded
 * on the draft write). With `submit: "auto"` the lead is then submitted as the partner's submit
 * would; a submit refused (a duplicate company) leaves the lead ready for the partner.
 */
export async function agreeAndComplete(deps: Deps, opened: Opened, softCreditSearch: boolean, locale?: string) {
  const { link } = opened;
  const market = marketFor(opened.lead.country);
  const missing = missingForSubmit(opened.lead, market);
  if (missing.length > 0) {
    throw new Refusal("missing_fields", `Some answers are still needed: ${missing.join(", ")}.`, { field: missing[0], extra: { missing } });
  }
  let completedAtIso = "";
  const after = await changeDraft(
    deps,
    scopeOfLink(link),
    link.leadId,
    (lead, at) => {
      completedAtIso = at;
      // The link comes before any offer: what it discloses is the existence and nature of commission, and its
      // version in the receipt is the record (offers' disclosures, with amounts, are kept per offer where they are accepted).
      return { ...lead, consent: consentByBusiness({ version: CURRENT_CONSENT_TEXT.version, locale: locale ?? market.locale, agreedAt: at, softCreditSearch, disclosureVersion: CURRENT_COMMISSION_DISCLOSURE.version }) };
    },
    undefined,
    (_before, lead) => [
      leadEvent(lead, "lead.consent_captured", { receipt: lead.consent?.receipt ?? null }),
      leadEvent(lead, "lead.application_completed", { link: { id: link.id, expires_at: link.expiresAt }, submit: link.submitMode }),
    ],
    (lead, at) => [completeLinkUpdate(deps.db, link.id, at, draftWritten(lead.id, lead.version, at))],
  );
  if (link.submitMode === "auto") {
    try {
      await submitLead(deps, scopeOfLink(link), link.leadId, panelMatcher(deps));
    } catch (error) {
      if (!isRefusal(error, "duplicate_lead", "missing_fields", "conflict")) throw error;
      deps.log.log("info", "application_link_auto_submit_refused", { lead_id: link.leadId, code: error.code });
    }
  }
  return { lead: after, completedAt: completedAtIso };
}

/**
 * The business withdraws its consent before submission, from the link's done page or the client hub
 * (`channel`): consent no longer obtained, the receipt kept as the record of what was withdrawn, and
 * `lead.consent_withdrawn` in the same batch, guarded on the draft write; submit then answers 422
 * `consent_required`. A submitted lead is 409 `lead_submitted` (its data went to providers: see
 * docs/application-link.md, "Withdrawal"); a lead without consent to withdraw is 409 `invalid_transition`.
 */
export async function withdrawLeadConsent(deps: Deps, scope: Scope, leadId: string, channel: ConsentWithdrawalChannel) {
  return changeDraft(
    deps,
    scope,
    leadId,
    (lead, at) => {
      if (!consentToWithdraw(lead.consent)) throw new Refusal("invalid_transition", "There is no consent to withdraw: it was not given, or it was withdrawn already.");
      return { ...lead, consent: withdrawnConsent(lead.consent, at) };
    },
    undefined,
    (_before, lead) => [leadEvent(lead, "lead.consent_withdrawn", { withdrawn_at: lead.consent?.withdrawn_at ?? null, withdrawn_via: channel })],
  );
}

/** Withdrawal from the link's own session (its done page). */
export const withdrawConsent = (deps: Deps, opened: Opened) => withdrawLeadConsent(deps, scopeOfLink(opened.link), opened.lead.id, "application_link");

export { CURRENT_COMMISSION_DISCLOSURE, CURRENT_CONSENT_TEXT };

/** The company register's stored answer for the number the lead holds (null until it answered), for "Is this your company?". */
export async function registerAnswerOf(deps: Deps, opened: Opened) {
  const found = await findLeadWithRelations(deps.db, scopeOfLink(opened.link), opened.lead.id);
  if (!found) return null;
  return registerViewFrom(found.registerAnswers, deps.clock()).answers.registry;
}

/** The bank statements on the lead (every document the business or the partner sent of that type). */
export async function statementsOf(deps: Deps, opened: Opened) {
  const { documents } = await leadDocuments(deps, scopeOfLink(opened.link), opened.lead.id);
  return documents.filter((d) => d.documentType === "bank_statements");
}

/** Bank statements sent from the link: each through the partner upload's own rules (kind sniffed, CSV/OFX parsed, the lead's cap). */
export async function uploadApplicationStatements(deps: Deps, opened: Opened, files: { name: string; bytes: Uint8Array }[]) {
  if (files.length === 0) throw new Refusal("invalid_request", "Choose a file to upload.", { field: "file" });
  const stored = [];
  for (const file of files) {
    if (file.bytes.length === 0) throw new Refusal("invalid_request", `The file ${file.name} is empty.`, { field: "file" });
    stored.push(await uploadLeadDocument(deps, scopeOfLink(opened.link), opened.lead.id, { documentType: "bank_statements", filename: file.name, bytes: file.bytes }));
  }
  return stored;
}
