/** Lender portal tests: a live deal routed to lender A (and its twin at lender B), A's member signed in and switched to live. */
import { env, exports } from "cloudflare:workers";
import { PRODUCTION } from "../../helpers/api";
import { auditEntries, countInData, inData } from "../../helpers/data-db";
import { followRefused, freshFormToken, portal, signedInMember, type PortalSession } from "../../helpers/portal";
import { routedLead } from "../../lender/helpers";

export async function liveSession(organisationId: string, role: "admin" | "member" = "member") {
  const session = await signedInMember(organisationId, role);
  const switched = await portal("POST", "/environment", { session, form: { environment: "live" } });
  if (switched.status !== 303) throw new Error(`switch: ${switched.status}`);
  return session;
}

/** A live UK lead routed to lenders A and B; a member of A looking at live. */
export async function lenderAtLiveDeal() {
  const routed = await routedLead();
  return { ...routed, session: await liveSession(routed.a.id) };
}

/** The member's audit entries other than the environment switch, oldest first. */
export async function auditOf(session: PortalSession) {
  return auditEntries<{ action: string; target: string | null; environment: string }>("action, target, environment", "member_id = ? and action != 'environment.switched'", session.memberId);
}

/** Rows a deal action may write, counted, to show a refused form wrote nothing. */
export async function writtenFor(ref: string, leadId: string | null) {
  // A live deal's rows are in DB, a sandbox deal's in DB_SANDBOX: counted in both.
  const count = (sql: string, ...binds: unknown[]) => countInData(sql, ...binds);
  return {
    offers: await count("select count(*) n from offers where deal_ref = ?", ref),
    messages: await count("select count(*) n from deal_messages where deal_ref = ?", ref),
    requests: await count("select count(*) n from document_requests where deal_ref = ?", ref),
    events: await count("select count(*) n from events where subject_id in (?, ?)", ref, leadId ?? ""),
    notifications: await count("select count(*) n from client_notifications where deal_ref = ?", ref),
    deal: await inData.prepare("select lender_status, status, agreement_key from deals where ref = ?").bind(ref).first(),
  };
}

/** The agreement form as a browser sends it: multipart, the form token beside the file. */
export async function postAgreement(session: PortalSession, ref: string, file: { bytes: Uint8Array; type: string; name: string } | null) {
  const form = new FormData();
  form.set("_form_token", await freshFormToken(session));
  if (file) form.set("agreement", new File([file.bytes], file.name, { type: file.type }));
  else form.set("agreement", new File([], "", { type: "application/octet-stream" }));
  const res = await exports.default.fetch(
    new Request(`${PRODUCTION}/portal/deals/${ref}/agreement`, { method: "POST", headers: { "Sec-Fetch-Site": "same-origin", Cookie: session.cookie }, body: form, redirect: "manual" }),
  );
  const answer = await followRefused(res, session.cookie);
  const location = answer.via ? null : answer.headers.get("Location");
  return { ...answer, location: location ? new URL(location, PRODUCTION).pathname + new URL(location, PRODUCTION).search : null };
}

/** What a person reads on a page: no scripts, styles, payloads, tags or attributes; entities decoded. */
export function visibleText(html: string) {
  return html
    .replace(/<(script|style|pre|code|select|textarea|template)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

/**
 * Developer words in a page's visible text: snake_case codes (`business_loan`, `official_register`),
 * a stored proof (`typed_name:…`), the API's prefixed ids (`off_…`, `req_…`, `doc_…`, `mbr_…`, `note_…`)
 * and the labels issue 45 item 10 named. A deal reference (DL-…) is the lender's own handle and may show.
 */
export function developerWords(html: string): string[] {
  const text = visibleText(html);
  const found = [
    ...[...text.matchAll(/(?<![\w.@/-])[a-z]+(?:_[a-z0-9]+)+(?![\w@-])/g)].map((m) => m[0]),
    ...[...text.matchAll(/\b(?:off|req|doc|msg|mbr|mem|note|lead|org)_[A-Za-z0-9]{6,}\b/g)].map((m) => m[0]),
    ...["Deal status", "Identifier:", "(UTC)", "Channel name", "major units", "typed_name", "Company type Ltd"].filter((w) => text.includes(w)),
  ];
  return [...new Set(found)];
}
