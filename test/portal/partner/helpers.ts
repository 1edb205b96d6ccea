import { env, exports } from "cloudflare:workers";
import { PRODUCTION } from "../../helpers/api";
import { followRefused, freshFormToken, portal, type PortalSession } from "../../helpers/portal";
import { auditEntries, inData } from "../../helpers/data-db";

/** The complete UK lead of test/leads/helpers.ts, as the portal form posts it (flat names). */
export const completeUkForm = (): Record<string, string> => ({
  country: "GB",
  partner_reference: "acct-42",
  "channel.name": "Acme Books",
  "channel.domain": "acmebooks.example",
  "business.name": "Widgets Ltd",
  "business.company_number": "01234567",
  "business.entity_type": "private_limited_company",
  "business.industry": "ecommerce",
  "business.vat.number": "GB123456789",
  "contact.first_name": "Ada",
  "contact.last_name": "Lovelace",
  "contact.email": "ada@example.com",
  "contact.phone": "+44 20 7946 0000",
  "funding.amount": "40000",
  "funding.purpose": "working_capital",
  "funding.product_family": "business_loan",
  "trading.monthly_revenue_band": "25k_50k",
  "trading.time_in_business_band": "24m_60m",
  "trading.annual_turnover": "420000",
  "consent.obtained": "on",
  "consent.obtained_at": "2026-11-01T10:00",
  "consent.soft_credit_search": "on",
});

export const switchTo = (session: PortalSession, environment: "sandbox" | "live") => portal("POST", "/environment", { session, form: { environment } });

export async function auditOf(organisationId: string) {
  return auditEntries<any>("action, target, environment, member_id", "organisation_id = ?", organisationId);
}

export async function leadIdsOf(organisationId: string) {
  const { results } = await inData.prepare("select id from leads where organisation_id = ?").bind(organisationId).all<{ id: string }>();
  return results.map((r) => r.id);
}

export async function eventNamesOf(subjectId: string) {
  const { results } = await inData.prepare("select event from events where subject_id = ? order by created_at, rowid").bind(subjectId).all<{ event: string }>();
  return results.map((r) => r.event);
}

/** The text of the refusal shown beside an input (FieldError's id is `<name>-error`). */
export function messageBeside(html: string, name: string): string | null {
  const match = html.match(new RegExp(`id="${name.replace(/\./g, "\\.")}-error"[^>]*>([^<]*)<`));
  return match ? match[1] : null;
}

/** A multipart post of the portal (a file upload form), as a browser on our own origin sends it. */
export async function portalUpload(path: string, session: PortalSession, fields: Record<string, string>, file?: { bytes: Uint8Array; name: string }) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  if (file) body.append("file", new Blob([file.bytes]), file.name);
  body.set("_form_token", await freshFormToken(session));
  const res = await exports.default.fetch(
    new Request(`${PRODUCTION}/portal${path}`, { method: "POST", headers: { "Sec-Fetch-Site": "same-origin", Cookie: session.cookie }, body, redirect: "manual" }),
  );
  const answer = await followRefused(res, session.cookie);
  const location = answer.via ? null : answer.headers.get("Location");
  return { ...answer, location: location ? new URL(location, PRODUCTION).pathname : null, query: location ? new URL(location, PRODUCTION).search : null };
}

/** The version a page's edit form was drawn from (its hidden `version` input). */
export const formVersionOf = (html: string) => html.match(/<input type="hidden" name="version" value="(\d+)"/)?.[1];

/** Each person's edit link on the persons page, by name: `{ "Ada Lovelace": "/portal/leads/…/persons/<key>/edit" }`. */
export function personLinksOf(html: string): Record<string, string> {
  return Object.fromEntries([...html.matchAll(/<a href="([^"]+\/persons\/[^"/]+\/edit)">\s*Edit <bdi>([^<]+)<\/bdi>/g)].map((m) => [m[2], m[1]]));
}

/** The draft's current version, as its edit forms carry it. */
export async function leadVersion(id: string) {
  return String((await inData.prepare("select version from leads where id = ?").bind(id).first<{ version: number }>())!.version);
}

/**
 * Submits a draft as a person does (issue 45 item 1): its "Check your answers" page, then that page's one submit
 * form. A check page that offers no submit (a mandatory answer missing) is posted to anyway with the draft's
 * version, as a hand-made post would be, to see the refusal.
 */
export async function submitThroughCheck(session: PortalSession, id: string) {
  const check = await portal("GET", `/leads/${id}/check`, { session });
  if (check.status !== 200) throw new Error(`the check page answered ${check.status}`);
  return portal("POST", `/leads/${id}/submit`, { session, form: { version: formVersionOf(check.text) ?? (await leadVersion(id)) } });
}

/** Opens a complete UK draft from the form and submits it through its check page; answers the lead's id. */
export async function openAndSubmit(session: PortalSession, form: Record<string, string> = completeUkForm()) {
  const created = await portal("POST", "/leads/new", { session, form: { ...form, intent: "check" } });
  const id = created.location?.match(/^\/portal\/leads\/([0-9a-f-]{36})\/check$/)?.[1];
  if (!id) throw new Error(`the new lead answered ${created.status} ${created.location}`);
  const submitted = await submitThroughCheck(session, id);
  return { id, created, submitted };
}
