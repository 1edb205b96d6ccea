/** Shared by the portal's key and webhook tests: reading what a page shows, and the audit log. */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createApp } from "../../../src/app";
import { PRODUCTION } from "../../helpers/api";
import { followRefused, freshFormToken, type PortalResponse, type PortalSession } from "../../helpers/portal";
import { auditEntries } from "../../helpers/data-db";

/** The one secret shown on the page (the copy control's `data-secret` field, kit/copy.tsx), or null when there is none. */
export function shownSecret(html: string): string | null {
  const field = /<input\b[^>]*\bdata-secret\b[^>]*>/.exec(html)?.[0];
  const match = field ? /\bvalue="([^"]+)"/.exec(field) : null;
  return match ? match[1].replace(/&amp;/g, "&").trim() : null;
}

export const KEY_PATTERN = /rfs_(?:ptr|lnd|pub)_(?:sandbox|live)_[a-z0-9]{16}_[a-z0-9]{40}/g;
export const SECRET_PATTERN = /whsec_[A-Za-z0-9_-]+/g;

export async function auditOf(organisationId: string) {
  return auditEntries<{ action: string; target: string | null; environment: string; member_id: string }>("action, target, environment, member_id", "organisation_id = ?", organisationId);
}

/** A portal post through the app with some bindings replaced (ALLOW_PRIVATE_WEBHOOKS "false" as in production). */
export async function portalPostWith(overrides: Partial<Cloudflare.Env>, path: string, session: PortalSession, form: Record<string, string | string[]>): Promise<PortalResponse> {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) for (const v of [value].flat()) body.append(name, v);
  body.set("_form_token", await freshFormToken(session));
  const app = createApp();
  const send = (request: Request) => Promise.resolve(app.request(request, undefined, { ...env, ...overrides }, createExecutionContext()));
  const res = await send(
    new Request(`${PRODUCTION}/portal${path}`, {
      method: "POST",
      headers: { Cookie: session.cookie, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded" },
      body: body.toString(),
      redirect: "manual",
    }),
  );
  // A refused post is answered 303 to its form's page, followed through the same app as a browser does.
  const answer = await followRefused(res, session.cookie, { send });
  const location = answer.via ? null : answer.headers.get("Location");
  return { ...answer, location: location ? new URL(location, PRODUCTION).pathname : null };
}
