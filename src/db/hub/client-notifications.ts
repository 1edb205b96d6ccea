/**
 * What the business is told (the hub lists these; an outbound mail channel
 * reads them). Inserts are statements for the batch of the change they announce.
 */
import { desc, eq, type SQL } from "drizzle-orm";
import { newId } from "../../lib/ids";
import type { Database } from "../client";
import { insertWhere } from "../guarded";
import { clientNotifications } from "../schema/documents";
import { writeOrder } from "../write-order";

export interface ClientNotification {
  id: string;
  kind: string;
  dealRef: string | null;
  subject: string;
  deepLink: string;
  createdAt: string;
  readAt: string | null;
}

export interface NewClientNotification {
  leadId: string;
  environment: "sandbox" | "live";
  kind: "document_request" | "message" | "agreement";
  dealRef: string | null;
  subject: string;
  /** Hub path without origin or token, e.g. `/deals/DL-…/messages`. */
  deepLink: string;
}

const notificationRow = (n: NewClientNotification, at: string) => ({
  id: newId("ntf"),
  leadId: n.leadId,
  environment: n.environment,
  kind: n.kind,
  dealRef: n.dealRef,
  subject: n.subject,
  deepLink: n.deepLink,
  createdAt: at,
  readAt: null,
});

export const notificationInsert = (db: Database, n: NewClientNotification, at: string) => db.insert(clientNotifications).values(notificationRow(n, at));

/** The notification of a change that may lose its race: written only when `guard` holds. */
export const notificationInsertWhere = (db: Database, n: NewClientNotification, guard: SQL, at: string) => insertWhere(db, clientNotifications, notificationRow(n, at), guard);

/** Newest first. */
export async function notificationsOfLead(db: Database, leadId: string): Promise<ClientNotification[]> {
  const rows = await db.select().from(clientNotifications).where(eq(clientNotifications.leadId, leadId)).orderBy(desc(clientNotifications.createdAt), desc(writeOrder(clientNotifications))).all();
  return rows.map((r) => ({ id: r.id, kind: r.kind, dealRef: r.dealRef, subject: r.subject, deepLink: r.deepLink, createdAt: r.createdAt, readAt: r.readAt }));
}
