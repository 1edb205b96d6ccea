import { env } from "cloudflare:workers";
import { database } from "../../src/db/client";
import { requestUploadedUpdate } from "../../src/db/documents/requests";
import { documents } from "../../src/db/schema/documents";
import { eventInsert } from "../../src/db/webhooks/events";
import type { ParsedStatement, StoredDocument } from "../../src/domain/documents/types";
import { documentStorageKey } from "../../src/domain/documents/view";
import { randomToken } from "../../src/lib/crypto";
import { newId, nowIso } from "../../src/lib/ids";
import { call } from "../helpers/api";
import { dataDb, inData } from "../helpers/data-db";

export async function testDeal(key: string) {
  const res = await call("POST", "/v1/test/deals", { key });
  if (res.status !== 201) throw new Error(`test deal: ${res.status} ${res.text}`);
  return res.body.ref as string;
}

export const ask = (key: string, ref: string, body: unknown) => call("POST", `/v1/deals/${ref}/requests`, { key, body });

export async function requestOn(key: string, ref: string, item_type = "bank_statements_6m", note?: string) {
  const res = await ask(key, ref, note === undefined ? { item_type } : { item_type, note });
  if (res.status !== 200) throw new Error(`request: ${res.status} ${res.text}`);
  return res.body.request as { id: string; [k: string]: unknown };
}

export const requestRow = (id: string) => inData.prepare("select * from document_requests where id = ?").bind(id).first<any>();

interface DealRow {
  ref: string;
  lead_id: string | null;
  partner_organisation_id: string | null;
  lender_organisation_id: string;
  environment: "sandbox" | "live";
  test: number;
}

const dealRow = (ref: string) => inData.prepare("select * from deals where ref = ?").bind(ref).first<DealRow>();

export interface UploadedFile {
  filename: string;
  content: string;
  contentType?: string;
}

/**
 * What the client hub does when the business uploads against a request (engineer
 * H's side, per the documents contract): the files in R2, their rows, the request
 * `uploaded` and the `request.fulfilled` event without links, in one batch.
 */
export async function fulfil(ref: string, requestId: string, files: UploadedFile[] = [{ filename: "statement.pdf", content: "%PDF-1.7 bank statement" }]) {
  const deal = (await dealRow(ref))!;
  const db = database(dataDb(deal.environment));
  const at = nowIso();
  const request = (await requestRow(requestId))!;
  const stored: StoredDocument[] = files.map((f) => ({
    id: newId("doc"),
    environment: deal.environment,
    leadId: deal.lead_id!,
    partnerOrganisationId: deal.partner_organisation_id!,
    dealRef: deal.ref,
    requestId,
    source: "client_upload",
    documentType: request.document_type,
    filename: f.filename,
    contentType: f.contentType ?? "application/pdf",
    byteSize: new TextEncoder().encode(f.content).byteLength,
    state: "accepted",
    reason: null,
    storageKey: "",
    statement: null,
    formulaCells: false,
    receivedAt: at,
    decidedAt: at,
  }));
  for (const d of stored) {
    d.storageKey = documentStorageKey(d);
    const f = files[stored.indexOf(d)];
    await env.DOCUMENTS.put(d.storageKey, f.content, { httpMetadata: { contentType: d.contentType }, customMetadata: { filename: d.filename } });
  }
  const detail = {
    request: {
      id: requestId,
      item_type: request.item_type,
      label: request.label,
      file_count: request.file_count + stored.length,
      uploaded_at: at,
      files: stored.map((d) => ({ id: d.id, document_type: d.documentType, filename: d.filename, content_type: d.contentType, size_bytes: d.byteSize })),
    },
  };
  await db.batch([
    ...stored.map((d) => db.insert(documents).values({ ...d })),
    requestUploadedUpdate(db, requestId, request.file_count, stored.length, randomToken(24), at),
    eventInsert(db, { organisationId: deal.lender_organisation_id, environment: deal.environment, api: "lender", event: "request.fulfilled", subjectType: "deal", subjectId: deal.ref, test: Boolean(deal.test), detail }),
  ] as any);
  return { documents: stored, detail };
}

const statement = (monthly_revenue: number): ParsedStatement => ({
  format: "csv",
  account_kind: "bank",
  currency: "GBP",
  period_start: "2026-05-01",
  period_end: "2026-10-31",
  transaction_count: 120,
  credits_total: monthly_revenue * 6,
  debits_total: monthly_revenue * 4,
  monthly_revenue,
});

/** An accepted, parsed bank statement the partner uploaded on the deal's lead (engineer P's side). */
export async function partnerStatement(ref: string, monthlyRevenue = 42_000) {
  const deal = (await dealRow(ref))!;
  const db = database(dataDb(deal.environment));
  const at = nowIso();
  const doc: StoredDocument = {
    id: newId("doc"),
    environment: deal.environment,
    leadId: deal.lead_id!,
    partnerOrganisationId: deal.partner_organisation_id!,
    dealRef: null,
    requestId: null,
    source: "partner_upload",
    documentType: "bank_statements",
    filename: "statement.csv",
    contentType: "text/csv",
    byteSize: 10,
    state: "accepted",
    reason: null,
    storageKey: "",
    statement: statement(monthlyRevenue),
    formulaCells: false,
    receivedAt: at,
    decidedAt: at,
  };
  doc.storageKey = documentStorageKey(doc);
  await env.DOCUMENTS.put(doc.storageKey, "date,amount", { httpMetadata: { contentType: "text/csv" }, customMetadata: { filename: doc.filename } });
  await db.batch([db.insert(documents).values({ ...doc })]);
  return doc;
}

/** Downloads a signed link through the Worker, as the lender's system would. */
export async function download(url: string) {
  const { exports } = await import("cloudflare:workers");
  const res = await exports.default.fetch(new Request(url));
  return { status: res.status, text: new TextDecoder().decode(await res.arrayBuffer()), headers: res.headers };
}
