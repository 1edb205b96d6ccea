import { env, exports } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { documentRequests } from "../../src/db/schema/documents";
import { call, ownAddress, PRODUCTION, throughEdge } from "../helpers/api";
import { followRefused } from "../helpers/portal";
import { completeUkLead } from "../leads/helpers";
import { firmOffer, makeOffer, routedLead } from "../lender/helpers";
import { dataDb, inData } from "../helpers/data-db";

export const OUR_ORIGIN = PRODUCTION;

/** Where a link's pages live once its token was traded for the session cookie: `/hub/<lead>` (no token). */
export const pagesOf = (hubPath: string) => hubPath.split("/").slice(0, 3).join("/");

/** A routed lead and its hub path (`/hub/<lead>/<token>`), read from the lead's `upload_url`. */
export async function hubLead(body: unknown = completeUkLead()) {
  const routed = await routedLead(body);
  const read = await call("GET", `/partner/v1/leads/${routed.lead.id}`, { key: routed.partner.live.key });
  const hub = new URL(read.body.upload_url).pathname;
  return { ...routed, hub };
}

/** The lead with lender A's firm offer accepted: deal A is `offer_accepted`. */
export async function acceptedHubLead(body?: unknown) {
  const routed = await hubLead(body);
  const offer = await makeOffer(routed.keys.a.live, routed.refA, firmOffer());
  const res = await call("POST", `/partner/v1/leads/${routed.lead.id}/offers/${offer.id}/acceptance`, { key: routed.partner.live.key });
  if (res.status !== 200) throw new Error(`accept: ${res.status} ${res.text}`);
  return { ...routed, offer };
}

let seq = 0;
/**
 * A lender's document request on a deal. Engineer L builds the lender endpoint
 * (`POST /v1/deals/{ref}/requests`) in parallel; until it is on main the row
 * is written directly. Swap the body for the API call once it lands.
 */
export async function requestDocuments(deal: { ref: string; lenderOrganisationId: string; leadId: string }, overrides: Partial<typeof documentRequests.$inferInsert> = {}) {
  const row = {
    id: `req_test${Date.now().toString(36)}${(seq++).toString(36)}`,
    dealRef: deal.ref,
    environment: "live" as const,
    lenderOrganisationId: deal.lenderOrganisationId,
    leadId: deal.leadId,
    itemType: "bank_statements_6m",
    documentType: "bank_statements",
    label: "Bank statements (last 6 months)",
    note: "All business accounts, please",
    status: "requested" as const,
    requestedVia: "hub",
    fileCount: 0,
    requestedAt: new Date().toISOString(),
    lastChange: "seed",
    ...overrides,
  };
  await drizzle(dataDb(row.environment)).insert(documentRequests).values(row);
  return row;
}

export interface HubResponse {
  status: number;
  headers: Headers;
  text: string;
  /** A refused post's redirect to its form's page, followed with the cookie as a browser does (`followRefused`); null otherwise. */
  via: string | null;
}

/**
 * Calls the hub as a browser on our own origin would (Origin + Sec-Fetch-Site), unless told otherwise,
 * from a client address of its own through the edge: every hub request counts against its address, and
 * requests without one share the `unattributed` bucket with every other file of the runtime (120 a
 * minute), so hub tests run back to back would throttle each other (test/hub/hub-link.test.ts tests the limit).
 */
export async function hubCall(method: string, path: string, options: { form?: Record<string, string>; multipart?: FormData; headers?: Record<string, string> } = {}): Promise<HubResponse> {
  const headers: Record<string, string> = { ...ownAddress(), ...(method === "GET" ? {} : { Origin: OUR_ORIGIN, "Sec-Fetch-Site": "same-origin" }) };
  Object.assign(headers, options.headers);
  // An empty value drops a default header (a client that does not send it).
  for (const [name, value] of Object.entries(headers)) if (value === "") delete headers[name];
  let body: BodyInit | undefined;
  if (options.form) {
    body = new URLSearchParams(options.form).toString();
    headers["Content-Type"] = "application/x-www-form-urlencoded";
  } else if (options.multipart) {
    body = options.multipart;
  }
  let res = await exports.default.fetch(new Request(`${PRODUCTION}${path}`, { method, headers, body, redirect: "manual", ...throughEdge(headers) }));
  // Opening a link (GET /hub/<lead>/<token>…) trades the token for the session cookie and redirects to the
  // page without it; follow that once with the cookie, as a browser does (test/hub/hub-link.test.ts checks the exchange itself).
  const cookie = /^(rfs_hub=[^;]+)/.exec(res.headers.get("Set-Cookie") ?? "")?.[1];
  if (method === "GET" && res.status === 303 && cookie) {
    await res.text();
    res = await exports.default.fetch(new Request(new URL(res.headers.get("Location")!, PRODUCTION), { headers: { ...headers, Cookie: cookie }, redirect: "manual", ...throughEdge(headers) }));
  }
  // A refused post with a session cookie (the hub's or the application link's) is answered 303 to its form's page: followed as a browser does.
  const address = headers["CF-Connecting-IP"];
  return followRefused(res, method === "POST" ? headers.Cookie : undefined, { headers: address ? { "CF-Connecting-IP": address } : {} });
}

export function filesForm(...files: { name: string; content: string | Uint8Array; type?: string }[]) {
  const form = new FormData();
  for (const f of files) form.append("file", new File([f.content], f.name, { type: f.type ?? "application/pdf" }));
  return form;
}

/** The lender's events of one deal, newest last, as `GET /v1/events` lists them. */
export async function lenderEvents(key: string, ref: string, event?: string) {
  const query = new URLSearchParams({ subject: ref, ...(event ? { event } : {}) });
  const res = await call("GET", `/v1/events?${query}`, { key });
  if (res.status !== 200) throw new Error(`events: ${res.status} ${res.text}`);
  return (res.body.events as any[]).slice().reverse();
}

export const dealRow = async (ref: string) => inData.prepare("select * from deals where ref = ?").bind(ref).first<any>();
