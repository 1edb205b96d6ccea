/** The lead as the partner's pages read it (readLeadForPerson), and the words its parts share. */
import { LEAD_STATES } from "../../../domain/reference/values";
import type { readLeadForPerson } from "../../../services/leads/presentation";
import { PORTAL_ROUTE } from "../context";

export type LeadView = Awaited<ReturnType<typeof readLeadForPerson>>;

export const stateLabel = (state: string) => LEAD_STATES.find((s) => s.value === state)?.label ?? state;
export const shown = (value: unknown) => (value === null || value === undefined || value === "" ? "—" : String(value));

export const leadPath = (id: string) => `${PORTAL_ROUTE}/leads/${encodeURIComponent(id)}`;
/** A rejected document's confirm page (document-remove.tsx), which its form also posts to. */
export const removeDocumentPath = (leadId: string, documentId: string) =>
  `${PORTAL_ROUTE}/leads/${encodeURIComponent(leadId)}/documents/${encodeURIComponent(documentId)}/remove`;

export const acceptPath = (leadId: string, offerId: string) => `${PORTAL_ROUTE}/leads/${encodeURIComponent(leadId)}/offers/${encodeURIComponent(offerId)}/accept`;
