/** The lead page as the member sees it after a read, a redirect with a notice, or a refused action. */
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { isNotFound } from "../../kit/refusal";
import { readLeadForPerson } from "../../../services/leads/presentation";
import { viewContext } from "../../../services/views/view-context";
import type { PortalContext } from "../context";
import { LeadDetailPage } from "./lead-page";
import type { PageFeedback } from "../layout";
import { lenderNeedsOfLead } from "../../../services/leads/waiting";

/** What a successful action says after its redirect (`?done=`): fixed sentences, nothing from the request. */
export const LEAD_NOTICES: Record<string, string> = {
  created: "The lead was opened as a draft.",
  saved: "The draft was saved.",
  offer_declined: "The offer was declined for the client; its lender has been told.",
  submitted: "The lead was submitted. What happens next: the lenders on the panel look at it now; their offers appear on this page as they arrive (in the sandbox at once), and the lead.offers_available webhook tells your endpoints. A lender may ask the client for documents through the client's link.",
  accepted: "The offer was accepted. What happens next: the lender is told at once and contacts the client to collect the documents and the payout account, then sends the agreement to sign. The other offers are withdrawn.",
  document_accepted: "The document was uploaded and accepted.",
  document_rejected: "The document was uploaded but rejected: see the reason in the list below.",
  document_removed: "The rejected document was removed from the lead.",
  renewal: "This renewal was opened as a draft from the funded lead: check the figures, then submit it.",
  simulated_offers: "Sandbox: a fresh set of offers was simulated.",
  simulated_decline: "Sandbox: the lead was declined.",
  simulated_fund: "Sandbox: the lead was funded for the accepted offer's amount.",
};

/** The lead in the viewer's organisation and environment, or null (another's, or none: the same 404). */
export async function leadOfViewer(c: PortalContext, id: string) {
  try {
    return await readLeadForPerson(viewContext(c.env, { deps: c.get("deps") }), scopeOfViewer(c.get("viewer")), id);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** The lead page with what the lenders have asked of the client (read only once the lead was submitted: a draft has no deals). */
export async function leadPage(c: PortalContext, lead: NonNullable<Awaited<ReturnType<typeof leadOfViewer>>>, feedback?: PageFeedback) {
  const needs = lead.submitted_at ? await lenderNeedsOfLead(c.get("deps"), scopeOfViewer(c.get("viewer")), lead.id) : [];
  return <LeadDetailPage c={c} lead={lead} needs={needs} feedback={feedback} />;
}
